/**
 * `tidepool harvest` run as a child process against the archive sandbox:
 * a second run asks the server only for what changed (counted at the
 * server) and merges it into the file; a run stopped before its file was
 * written loses nothing; a Parquet folder and standard output grow the
 * same way. Outputs are read back from disk.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { OaiPmh } from "../../lib/archive/oai/oai_pmh.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { filesBelow, runTidepool } from "./_run_cli.ts";

/** The OAI-PMH requests the sandbox answered since `from`, as their query strings. */
function oaiRequests(
  sandbox: { archive: { requests: readonly { url: string }[] }; urls: { archive: string } },
  from: number,
) {
  return sandbox.archive.requests.slice(from).map(({ url }) => new URL(url, sandbox.urls.archive))
    .filter((url) => url.pathname.endsWith("/api/oai")).map((url) => url.searchParams);
}

/** The dc:title of a record in a harvested table. */
function titleOf(table: { objects(): object[] }, identifier: string): unknown {
  const row = (table.objects() as Record<string, unknown>[]).find((r) =>
    r.identifier === identifier
  );
  return row?.["dc:title"];
}

Deno.test("tidepool harvest: twice into a file, the second run fetching only the changes", async (t) => {
  await using sandbox = await startSandbox();
  const oai = `${sandbox.urls.archive}/shinano/letters/api/oai`;
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-harvest-" });
  const slugOf = (identifier: string) => identifier.slice(identifier.lastIndexOf("/") + 1);
  const change = (identifier: string, title: string) =>
    sandbox.archive.updateResource(
      { account: "shinano", db: "letters", slug: slugOf(identifier) },
      { title },
    );
  try {
    const expected = (await new OaiPmh(oai, { progress: false }).harvest()).numRows();
    assert.ok(expected > 1000, `${expected} records in the sandbox`);
    let first: string[] = [];

    await t.step("the first run harvests every record into the file", async () => {
      const run = await runTidepool(["harvest", oai, "--to", "letters.csv"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "", "nothing but data goes to standard output");
      assert.match(run.stderr, new RegExp(`harvest: ${expected.toLocaleString("en-US")} records`));
      const table = await readTable(`${dir}/letters.csv`);
      assert.equal(table.numRows(), expected);
      first = table.array("identifier") as string[];
      const state = JSON.parse(await Deno.readTextFile(`${dir}/letters.csv.harvest.json`));
      assert.equal(state.inProgress, false);
      assert.ok(state.highWater, "the state keeps the high-water datestamp");
    });

    await t.step("the second run asks only for the changes and merges them in place", async () => {
      change(first[10], "Changed once by the command-line test");
      const before = sandbox.archive.requests.length;
      const run = await runTidepool(["harvest", oai, "--to", "letters.csv"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const asked = oaiRequests(sandbox, before);
      const lists = asked.filter((query) => query.get("verb") === "ListRecords");
      assert.ok(lists.length >= 1);
      for (const query of lists.filter((q) => !q.has("resumptionToken"))) {
        assert.ok(query.get("from"), `an incremental run asks from a datestamp: ${query}`);
      }
      assert.ok(asked.length <= 3, `${asked.length} OAI-PMH requests for one change`);
      assert.match(run.stderr, /harvest: 1 new or changed record merged into letters\.csv/);
      const table = await readTable(`${dir}/letters.csv`);
      assert.equal(table.numRows(), expected, "every record once");
      assert.deepEqual(table.array("identifier"), first, "in the same order");
      assert.deepEqual(titleOf(table, first[10]), '["Changed once by the command-line test"]');
    });

    await t.step(
      "a run stopped before its file was written loses nothing on the next",
      async () => {
        const states = `${dir}/states`;
        await Deno.mkdir(states);
        const args = ["harvest", oai, "--to", "b.ndjson", "--state", `${states}/b.json`];
        assert.equal((await runTidepool(args, { cwd: dir })).code, 0);
        const committed = await Deno.readTextFile(`${states}/b.json`);
        change(first[20], "Changed while the file could not be written");
        // Deno may write the state's folder but not the file's: the harvest runs, the write fails.
        const stopped = await runTidepool(args, {
          cwd: dir,
          permissions: [
            "--allow-net=127.0.0.1",
            "--allow-read",
            "--allow-env",
            `--allow-write=${states}`,
          ],
        });
        assert.equal(stopped.code, 1, stopped.stderr);
        assert.match(stopped.stderr, /^tidepool harvest: Cannot save the table to b\.ndjson/);
        assert.equal(stopped.stderr.trim().split("\n").length, 1, "one line, no stack trace");
        assert.equal(
          await Deno.readTextFile(`${states}/b.json`),
          committed,
          "the state did not move",
        );
        const again = await runTidepool(args, { cwd: dir });
        assert.equal(again.code, 0, again.stderr);
        const table = await readTable(`${dir}/b.ndjson`);
        assert.equal(table.numRows(), expected);
        assert.deepEqual(titleOf(table, first[20]), [
          "Changed while the file could not be written",
        ]);
      },
    );

    await t.step("a missing file is harvested whole again, whatever its state says", async () => {
      await Deno.remove(`${dir}/letters.csv`);
      const run = await runTidepool(["harvest", oai, "--to", "letters.csv"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /letters\.csv is missing, so every record is harvested again/);
      assert.equal((await readTable(`${dir}/letters.csv`)).numRows(), expected);
    });

    await t.step("a Parquet folder grows by the changed records", async () => {
      const args = ["harvest", oai, "--to", "parts/", "--partition", "set"];
      const run = await runTidepool(args, { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      change(first[30], "Changed before the folder's second run");
      const second = await runTidepool(args, { cwd: dir });
      assert.equal(second.code, 0, second.stderr);
      assert.match(
        second.stderr,
        /harvest: 1 record written to parts\/ \(\d[\d,]* in the dataset/,
      );
      const files = (await filesBelow(`${dir}/parts`)).filter((f) => f.endsWith(".parquet"));
      assert.ok(files.every((file) => /\/set=[^/]+\//.test(file)), files.join(", "));
      let rows = 0;
      for (const file of files) rows += (await readTable(file)).numRows();
      assert.equal(rows, expected + 1, "the changed record is added with its new datestamp");
    });

    await t.step(
      "standard output with --state gives everything, then only the changes",
      async () => {
        const args = ["harvest", oai, "--to", "-", "--format", "ndjson", "--state", "out.json"];
        const all = await runTidepool(args, { cwd: dir });
        assert.equal(all.code, 0, all.stderr);
        const lines = all.stdout.trim().split("\n").map((line) => JSON.parse(line));
        assert.equal(lines.length, expected);
        change(first[40], "Changed before the second piped run");
        const changes = await runTidepool(args, { cwd: dir });
        assert.equal(changes.code, 0, changes.stderr);
        const changed = changes.stdout.trim().split("\n").map((line) => JSON.parse(line));
        assert.deepEqual(changed.map((record) => record.identifier), [first[40]]);
        assert.deepEqual(changed[0]["dc:title"], ["Changed before the second piped run"]);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
