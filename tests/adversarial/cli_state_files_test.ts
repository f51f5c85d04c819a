/**
 * Attacks on the files `tidepool harvest` and `tidepool resourcesync
 * --mirror` keep beside the user's: a link planted at each name they read
 * or write (state, pending state, spool, ledger, lock, a mirror's state and
 * list), a state named where the output or a folder is, a user's file named
 * as the state, and a reader that goes away before a keyed harvest is
 * delivered. Runs `runCli` in this process against hostile loopback servers;
 * outcomes (a file outside the folder, the next run's records) are read
 * from the file system.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { hostileOai, type HostileRecord } from "./_hostile_oai.ts";
import { capture, snapshot } from "./_cli_capture.ts";

function records(identifiers: readonly string[]): HostileRecord[] {
  return identifiers.map((identifier, i) => ({
    identifier,
    datestamp: `2026-01-0${1 + (i % 9)}T00:00:00Z`,
  }));
}

Deno.test("tidepool harvest: a link at any name kept beside the output is neither followed nor written through", async (t) => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const outside = await Deno.makeTempDir({ prefix: "tidepool-adv-victim-" });
  const secret = "root:x:0:0:root:/root:/bin/bash\n";
  await Deno.writeTextFile(`${outside}/victim.txt`, secret);
  const names = [
    "l.csv.harvest.json",
    "l.csv.harvest.json.pending",
    "l.csv.harvest.json.pending.records.ndjson",
    "l.csv.harvest.json.output.json",
    "l.csv.harvest.json.pending.output.json",
    "l.csv.harvest.json.lock",
  ];
  try {
    for (const name of names) {
      for (const earlier of [false, true]) {
        await t.step(`${name}${earlier ? ", after a first run" : ""}`, async () => {
          const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-links-" });
          try {
            if (earlier) {
              const first = await capture(["harvest", oai.url, "--to", `${dir}/l.csv`]);
              assert.equal(first.code, EXIT.ok, first.stderr);
              await Deno.remove(`${dir}/${name}`).catch(() => {});
            }
            await Deno.symlink(`${outside}/victim.txt`, `${dir}/${name}`);
            const run = await capture(["harvest", oai.url, "--to", `${dir}/l.csv`]);
            assert.equal(await Deno.readTextFile(`${outside}/victim.txt`), secret, run.stderr);
            assert.ok(
              !(run.stdout + run.stderr).includes("root:x:0"),
              `the link's target is shown: ${run.stderr}`,
            );
            assert.doesNotMatch(run.stderr, /Server said/);
            assert.ok(run.code === EXIT.usage || run.code === EXIT.failed, run.stderr);
            assert.match(run.stderr, /symbolic link/);
            assert.equal(
              (await Deno.lstat(`${dir}/${name}`)).isSymlink,
              true,
              "the link is left where it was",
            );
          } finally {
            await Deno.remove(dir, { recursive: true });
          }
        });
      }
    }
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("tidepool resourcesync --mirror: a link at the mirror's state or list is not written through", async (t) => {
  await using sandbox = await startSandbox();
  const outside = await Deno.makeTempDir({ prefix: "tidepool-adv-victim-" });
  await Deno.writeTextFile(`${outside}/victim.txt`, "precious\n");
  const site = ["resourcesync", sandbox.urls.archive, "--site", "shinano/letters"];
  try {
    for (
      const name of [
        "_resourcesync_state.json",
        "_resourcesync_state.json.locs.txt",
        "_resourcesync_state.json.pending",
        "_resourcesync_state.json.pending.locs.txt",
        "_resourcesync_state.json.lock",
      ]
    ) {
      await t.step(name, async () => {
        const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-mirror-links-" });
        try {
          const first = await capture([...site, "--mirror", `${dir}/m`, "--to", `${dir}/a.csv`]);
          assert.equal(first.code, EXIT.ok, first.stderr);
          await Deno.remove(`${dir}/m/${name}`).catch(() => {});
          await Deno.symlink(`${outside}/victim.txt`, `${dir}/m/${name}`);
          const run = await capture([...site, "--mirror", `${dir}/m`, "--to", `${dir}/b.csv`]);
          assert.equal(await Deno.readTextFile(`${outside}/victim.txt`), "precious\n");
          assert.equal(run.code, EXIT.failed, run.stderr);
          assert.match(run.stderr, /symbolic link/);
          assert.ok(!run.stderr.includes("precious"), run.stderr);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("tidepool harvest --state: the output, its sidecar, a folder, a user's file are refused before any request", async (t) => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-state-paths-" });
  try {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/budget.json`, '{"rent": 900}');
    await Deno.writeTextFile(`${dir}/blocker`, "a file where a folder is wanted");
    const cases: [string, string[], RegExp][] = [
      ["the output, spelt another way", [
        "--to",
        `${dir}/l.json`,
        "--state",
        `${dir}/sub/../l.json`,
      ], /it is the output file/],
      ["the output's provenance", [
        "--to",
        `${dir}/l.csv`,
        "--state",
        `${dir}/l.csv.provenance.json`,
      ], /provenance file/],
      ["the lock of the state, as --to", [
        "--to",
        `${dir}/s.json.lock.csv`,
        "--state",
        `${dir}/s.json.lock.csv`,
      ], /the output file/],
      ["a file kept beside the state, as --to", [
        "--to",
        `${dir}/s.json.pending.csv`,
        "--state",
        `${dir}/s.json`,
      ], /one of the files tidepool keeps/],
      ["inside the output folder", [
        "--to",
        `${dir}/ds/`,
        "--state",
        `${dir}/ds/year=2026/s.parquet`,
      ], /inside the output folder/],
      [
        "the output folder itself",
        ["--to", `${dir}/ds2/`, "--state", `${dir}/ds2`],
        /the output folder/,
      ],
      ["the root folder", ["--to", `${dir}/l.csv`, "--state", "/"], /folder/],
      ["an existing folder", ["--to", `${dir}/l.csv`, "--state", `${dir}/sub`], /it is a folder/],
      ["a name ending in /", ["--to", "-", "--state", `${dir}/new/`], /names a folder/],
      [
        "a path under a file",
        ["--to", `${dir}/l.csv`, "--state", `${dir}/blocker/s.json`],
        /is a file, not a folder/,
      ],
      [
        "a user's JSON file",
        ["--to", `${dir}/l.csv`, "--state", `${dir}/budget.json`],
        /not a state tidepool wrote/,
      ],
      ["--to under a file", ["--to", `${dir}/blocker/l.csv`], /is a file, not a folder/],
    ];
    const before = await snapshot(dir);
    for (const [what, flags, pattern] of cases) {
      await t.step(what, async () => {
        const asked = oai.requests.length;
        const run = await capture(["harvest", oai.url, ...flags]);
        assert.equal(run.code, EXIT.usage, run.stderr);
        assert.match(run.stderr, pattern);
        assert.equal(oai.requests.length, asked, "nothing was asked");
      });
    }
    assert.deepEqual(await snapshot(dir), before, "nothing was written, every file kept");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool resourcesync: --mirror naming a file, or --to among the mirror's files, is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-mirror-paths-" });
  try {
    await Deno.writeTextFile(`${dir}/file`, "mine");
    const source = "http://127.0.0.1:9";
    const asFile = await capture(["resourcesync", source, "--mirror", `${dir}/file`]);
    assert.equal(asFile.code, EXIT.usage, asFile.stderr);
    assert.match(asFile.stderr, /it is a file, not a folder/);
    const inside = await capture([
      "resourcesync",
      source,
      "--mirror",
      `${dir}/m`,
      "--to",
      `${dir}/m/_resourcesync_state.json`,
    ]);
    assert.equal(inside.code, EXIT.usage, inside.stderr);
    assert.match(inside.stderr, /one of the files the mirror keeps/);
    assert.equal(await Deno.readTextFile(`${dir}/file`), "mine");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest --state to standard output: a reader that went away loses no record", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-stdout-" });
  const args = ["harvest", oai.url, "--to", "-", "--format", "ndjson", "--state", `${dir}/s.json`];
  try {
    assert.equal((await capture(args)).code, EXIT.ok);
    oai.records.push({ identifier: "oai:x:3", datestamp: "2026-02-01T00:00:00Z" });
    const closed = await capture(args, { stdoutClosed: true });
    assert.equal(closed.code, EXIT.closedPipe, closed.stderr);
    assert.equal(closed.stderr, "", "a closed pipe ends the command quietly");
    const next = await capture(args);
    assert.equal(next.code, EXIT.ok, next.stderr);
    const ids = next.stdout.trim().split("\n").map((line) => JSON.parse(line).identifier);
    assert.deepEqual(ids, ["oai:x:3"], "the record no reader received comes again");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool: a reader that went away is never a success, for every command", async () => {
  await using oai = hostileOai(records(["oai:x:1"]));
  const run = await capture(["harvest", oai.url, "--to", "-"], { stdoutClosed: true });
  assert.equal(run.code, EXIT.closedPipe, run.stderr);
  const help = await capture(["--help"], { stdoutClosed: true });
  assert.notEqual(help.code, EXIT.ok);
});
