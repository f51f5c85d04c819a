/**
 * Attacks on the files `tidepool harvest` writes beside its output: a
 * user's file at the output path, a symlink at a name derived from it, the
 * state named as the output, and the merge key of an incremental harvest
 * into CSV. Each run is a child process against a hostile OAI-PMH
 * repository on loopback; outcomes are read from the file system.
 */

import assert from "node:assert/strict";
import { readTable } from "../../lib/files/read_table.ts";
import { runTidepool } from "../cli/_run_cli.ts";
import { hostileOai, type HostileRecord } from "./_hostile_oai.ts";

function records(identifiers: string[]): HostileRecord[] {
  return identifiers.map((identifier, i) => ({
    identifier,
    datestamp: `2026-01-0${1 + (i % 9)}T00:00:00Z`,
  }));
}

Deno.test("tidepool harvest --to a file tidepool did not write: it is not replaced", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-foreign-" });
  try {
    const mine = "name,amount\nrent,900\nfood,300\n";
    await Deno.writeTextFile(`${dir}/budget.csv`, mine);
    const run = await runTidepool(["harvest", oai.url, "--to", "budget.csv"], { cwd: dir });
    assert.equal(
      await Deno.readTextFile(`${dir}/budget.csv`),
      mine,
      `the user's file was replaced (exit ${run.code}: ${run.stderr.trim()})`,
    );
    assert.notEqual(run.code, 0, "a refused output is not a success");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest: a symlink planted at the spool's name is not written through", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-spool-" });
  const outside = await Deno.makeTempDir({ prefix: "tidepool-adv-outside-" });
  try {
    await Deno.writeTextFile(`${outside}/victim.txt`, "precious\n");
    await Deno.mkdir(`${dir}/out`);
    // The spool of the pending state: <file>.harvest.json.pending.records.ndjson.
    await Deno.symlink(
      `${outside}/victim.txt`,
      `${dir}/out/letters.csv.harvest.json.pending.records.ndjson`,
    );
    const run = await runTidepool(["harvest", oai.url, "--to", "out/letters.csv"], { cwd: dir });
    assert.equal(
      await Deno.readTextFile(`${outside}/victim.txt`),
      "precious\n",
      `a file outside the output folder was rewritten (exit ${run.code})`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("tidepool harvest --state naming the --to file: refused, or the records kept", async () => {
  await using oai = hostileOai(records(["oai:x:1", "oai:x:2"]));
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-same-" });
  try {
    const run = await runTidepool(
      ["harvest", oai.url, "--to", "letters.json", "--state", "letters.json"],
      { cwd: dir },
    );
    if (run.code === 0) {
      // A success must leave the records it announced in the file.
      const table = await readTable(`${dir}/letters.json`).catch((error) => error);
      assert.ok(
        !(table instanceof Error) && table.numRows() === 2,
        `exit 0 and "${run.stderr.trim()}", but letters.json holds ${
          (await Deno.readTextFile(`${dir}/letters.json`)).slice(0, 40).replace(/\s+/g, " ")
        }...`,
      );
    } else assert.equal(run.code, 2, run.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest into CSV: identifiers survive the merge, each record once", async (t) => {
  for (
    const [kind, identifiers] of [
      ["leading zeros", ["00123", "00456", "0789"]],
      ["formula-like", ["@oai:x:1", "-oai:x:2", "=oai:x:3"]],
      ["dates", ["2020-01-01", "2020-01-02", "2020-01-03"]],
    ] as const
  ) {
    await t.step(kind, async () => {
      await using oai = hostileOai(records([...identifiers]));
      const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-merge-" });
      try {
        const first = await runTidepool(["harvest", oai.url, "--to", "l.csv"], { cwd: dir });
        assert.equal(first.code, 0, first.stderr);
        // One record changes; the next run merges it in.
        oai.records[0] = { ...oai.records[0], datestamp: "2026-03-01T00:00:00Z", title: "new" };
        const second = await runTidepool(["harvest", oai.url, "--to", "l.csv"], { cwd: dir });
        assert.equal(second.code, 0, second.stderr);
        const table = await readTable(`${dir}/l.csv`);
        const ids = Array.from(table.array("identifier") as ArrayLike<unknown>, String);
        assert.equal(
          table.numRows(),
          identifiers.length,
          `each of the ${identifiers.length} records once, not ${
            ids.join(" | ")
          }: ${second.stderr.trim()}`,
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});
