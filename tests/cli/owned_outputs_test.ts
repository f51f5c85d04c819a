/**
 * Night 2, for every command that takes `--to`: the second run replaces
 * the file the first one wrote (in a text format and in Parquet, with a
 * mirror too), while a file the user edited since, or a table the user
 * saved with `saveTable`, is refused and kept byte for byte. Runs `tidepool`
 * as a child process against the sandbox; the independent check is the
 * bytes on disk.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { saveTable } from "../../lib/files/save_table.ts";
import { attachProvenance } from "../../lib/table/provenance.ts";
import { runTidepool } from "./_run_cli.ts";

const TITLES = `PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?item ?title WHERE { ?item dcterms:title ?title }`;

Deno.test("tidepool: every command's --to is replaced by its next run, and only while unchanged", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-night2-" });
  const { archive, subgraph, ocean, expressions } = sandbox.urls;
  const commands: Record<string, string[]> = {
    harvest: ["harvest", `${archive}/shinano/letters/api/oai`],
    sparql: ["sparql", `${archive}/api/shinano/dl/letters/sparql`, TITLES],
    resourcesync: ["resourcesync", archive, "--site", "shinano/letters"],
    mirror: ["resourcesync", archive, "--site", "shinano/letters", "--mirror", "mirror"],
    orders: ["orders", subgraph],
    assets: ["assets", ocean],
    expressions: ["expressions", expressions, "--pid", "990000101"],
  };
  try {
    for (const [name, args] of Object.entries(commands)) {
      // Parquet keeps its provenance inside: its record is in the sidecar all the same.
      for (
        const extension of name === "sparql" || name === "mirror" ? ["csv", "parquet"] : ["csv"]
      ) {
        await t.step(`${name} --to ${name}.${extension}, twice, then edited`, async () => {
          const to = `${name}.${extension}`;
          const path = `${dir}/${to}`;
          for (const night of [1, 2]) {
            const run = await runTidepool([...args, "--to", to], { cwd: dir });
            assert.equal(run.code, 0, `night ${night}: ${run.stderr}`);
          }
          const edited = new Uint8Array([
            ...await Deno.readFile(path),
            ...(extension === "csv" ? new TextEncoder().encode("my,own,row\n") : [0]),
          ]);
          await Deno.writeFile(path, edited);
          const third = await runTidepool([...args, "--to", to], { cwd: dir });
          assert.equal(third.code, 2, third.stderr);
          assert.match(third.stderr, new RegExp(`Refused to replace .*${to}: it changed since`));
          assert.match(third.stderr, /give --to another name, or remove .* yourself/);
          assert.deepEqual(await Deno.readFile(path), edited, "the edited file is kept");
        });
      }
    }
    await t.step("a table saved with saveTable, provenance and all, is the user's", async () => {
      const table = attachProvenance(aq.table({ n: [1, 2] }), {
        service: "archive",
        operation: "sparql",
        params: {},
        tidepoolVersion: "0.0.0",
        startedAt: "2026-01-01T00:00:00Z",
        endedAt: "2026-01-01T00:00:01Z",
        asOf: {},
        cacheKeys: [],
      });
      const path = `${dir}/notebook.csv`;
      await saveTable(path, table);
      const saved = await Deno.readFile(path);
      for (const args of Object.values(commands)) {
        const run = await runTidepool([...args, "--to", "notebook.csv"], { cwd: dir });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /it was saved with saveTable/);
      }
      assert.deepEqual(await Deno.readFile(path), saved, "the saved table is kept");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
