/**
 * The files at `--to`: a file tidepool did not write (a user's, in every
 * table format, beside it as a sidecar, behind a link, or a harvest's file
 * edited since) is refused before any request and kept byte for byte, by
 * every command that writes one; and an incremental harvest merges by the
 * identifiers exactly as harvested, in every output format, whatever a
 * format gives back when read (`00123`, `@x`, `2020-01-01`, `true`, `1e5`,
 * `'=x`). Runs `runCli` in this process against hostile loopback servers;
 * outcomes are read from the file system.
 */

import assert from "node:assert/strict";
import { readTable } from "../../lib/files/read_table.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { hostileOai, type HostileRecord } from "./_hostile_oai.ts";
import { capture, snapshot } from "./_cli_capture.ts";

function records(identifiers: readonly string[]): HostileRecord[] {
  return identifiers.map((identifier, i) => ({
    identifier,
    datestamp: `2026-01-0${1 + (i % 9)}T00:00:00Z`,
  }));
}

/** A loopback server that counts requests and answers nothing useful. */
function countingServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(req.url);
    return new Response("{}", { status: 503 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("tidepool: a file at --to that tidepool did not write is refused and kept, for every command and format", async (t) => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  await using server = countingServer();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-foreign-all-" });
  const commands = (to: string): string[][] => [
    ["harvest", oai.url, "--to", to],
    ["orders", `${server.origin}/subgraphs/name/a/b`, "--to", to],
    ["assets", server.origin, "--to", to],
    ["expressions", server.origin, "--to", to],
    ["resourcesync", server.origin, "--to", to],
    ["sparql", `${server.origin}/api/a/dl/b/sparql`, "ASK { ?s ?p ?o }", "--to", to],
  ];
  try {
    for (const name of ["mine.csv", "mine.ndjson", "mine.json", "mine.parquet", "mine.arrow"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "my own numbers\n1,2,3\n");
    }
    // A sidecar of the user's beside a table file that does not exist yet.
    await Deno.writeTextFile(`${dir}/fresh.csv.provenance.json`, '{"my": "notes"}');
    await Deno.writeTextFile(`${dir}/target.csv`, "kept behind a link\n");
    await Deno.symlink(`${dir}/target.csv`, `${dir}/linked.csv`);
    const before = await snapshot(dir);
    for (
      const to of [
        "mine.csv",
        "mine.ndjson",
        "mine.json",
        "mine.parquet",
        "mine.arrow",
        "fresh.csv",
        "linked.csv",
      ]
    ) {
      for (const args of commands(`${dir}/${to}`)) {
        await t.step(`${args[0]} --to ${to}`, async () => {
          const [oaiAsked, asked] = [oai.requests.length, server.seen.length];
          const run = await capture(args);
          assert.equal(run.code, EXIT.usage, run.stderr);
          assert.match(run.stderr, /Refused to replace .*tidepool replaces only files it wrote/);
          assert.equal(oai.requests.length + server.seen.length, oaiAsked + asked, "no request");
        });
      }
    }
    assert.deepEqual(await snapshot(dir), before, "every file kept byte for byte");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest: a file it wrote and someone edited since is refused, not merged into or replaced", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2", "oai:x:3"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-edited-" });
  const to = `${dir}/letters.ndjson`;
  try {
    assert.equal((await capture(["harvest", oai.url, "--to", to])).code, EXIT.ok);
    const edited = (await Deno.readTextFile(to)) + '{"identifier":"my own row"}\n';
    await Deno.writeTextFile(to, edited);
    oai.records[0] = { ...oai.records[0], datestamp: "2026-03-01T00:00:00Z", title: "new" };
    const asked = oai.requests.length;
    const run = await capture(["harvest", oai.url, "--to", to]);
    assert.equal(run.code, EXIT.usage, run.stderr);
    assert.match(run.stderr, /it changed since tidepool harvested into it/);
    assert.equal(await Deno.readTextFile(to), edited, "the edited file is kept");
    assert.equal(oai.requests.length, asked, "nothing was asked");
    // Moved away, the file is harvested whole again.
    await Deno.rename(to, `${dir}/mine.ndjson`);
    const again = await capture(["harvest", oai.url, "--to", to]);
    assert.equal(again.code, EXIT.ok, again.stderr);
    assert.equal((await readTable(to)).numRows(), 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest: a table another tidepool command wrote is harvested into whole", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-other-command-" });
  try {
    const first = await capture(["harvest", oai.url, "--to", `${dir}/a.csv`]);
    assert.equal(first.code, EXIT.ok, first.stderr);
    // Another state: its ledger does not name a.csv, but a.csv carries tidepool's provenance.
    const run = await capture([
      "harvest",
      oai.url,
      "--to",
      `${dir}/a.csv`,
      "--state",
      `${dir}/other.json`,
    ]);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.match(run.stderr, /written by another tidepool command/);
    assert.equal((await readTable(`${dir}/a.csv`)).numRows(), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const ODD = ["00123", "@oai:x:1", "-oai:x:2", "=oai:x:3", "2020-01-01", "true", "1e5", "'=oai:x:4"];

/** Sets of identifiers a format may read back as something else, and the rows that change. */
const SETS: readonly [string, readonly string[], readonly number[]][] = [
  ["mixed", ODD, [0, 1, 4, 7]],
  ["leading zeros", ["00123", "00456", "0789"], [0]],
  ["dates", ["2020-01-01", "2020-01-02", "2020-01-03"], [1]],
  ["formula-like", ["@oai:x:1", "+oai:x:2", "=oai:x:3"], [0, 2]],
  ["words a reader types", ["true", "false", "null"], [0]],
];

Deno.test("tidepool harvest: identifiers survive the merge in every format, each record once", async (t) => {
  for (const extension of ["csv", "ndjson", "jsonl", "json", "parquet", "arrow"]) {
    for (const [kind, identifiers, changes] of SETS) {
      await t.step(`${extension}, ${kind}`, async () => {
        await using oai = hostileOai(records(identifiers));
        const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-merge-all-" });
        const to = `${dir}/l.${extension}`;
        try {
          assert.equal((await capture(["harvest", oai.url, "--to", to])).code, EXIT.ok);
          for (const at of changes) {
            oai.records[at] = {
              ...oai.records[at],
              datestamp: "2026-03-01T00:00:00Z",
              title: "new",
            };
          }
          const second = await capture(["harvest", oai.url, "--to", to]);
          assert.equal(second.code, EXIT.ok, second.stderr);
          const table = await readTable(to);
          assert.equal(table.numRows(), identifiers.length, `each record once: ${second.stderr}`);
          const titles = table.array("dc:title") as ArrayLike<unknown>;
          const changed = Array.from(titles, String).filter((title) => title.includes("new"));
          assert.equal(changed.length, changes.length, "the changed records replaced their rows");
          if (extension === "csv") {
            // CSV reads back its own way; the text holds each identifier as harvested.
            const text = await Deno.readTextFile(to);
            for (const id of identifiers.filter((id) => /^[\w']/.test(id))) {
              assert.ok(text.includes(`\n${id},`), `${id} as harvested in ${text}`);
            }
          } else {
            const ids = Array.from(table.array("identifier") as ArrayLike<unknown>);
            assert.deepEqual(ids, identifiers, "the identifiers exactly as harvested, in order");
          }
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  }
  await t.step("a partitioned Parquet folder", async () => {
    await using oai = hostileOai(records(ODD));
    const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-merge-folder-" });
    try {
      const args = ["harvest", oai.url, "--to", `${dir}/set/`, "--partition", "none"];
      assert.equal((await capture(args)).code, EXIT.ok);
      oai.records[0] = { ...oai.records[0], datestamp: "2026-03-01T00:00:00Z", title: "new" };
      const second = await capture(args);
      assert.equal(second.code, EXIT.ok, second.stderr);
      const ids: unknown[] = [];
      for await (const entry of Deno.readDir(`${dir}/set`)) {
        if (!entry.name.endsWith(".parquet")) continue;
        ids.push(...(await readTable(`${dir}/set/${entry.name}`)).array("identifier"));
      }
      // A folder keeps the earlier row and adds the changed one with its new datestamp.
      assert.deepEqual(ids.toSorted(), [...ODD, ODD[0]].toSorted());
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
