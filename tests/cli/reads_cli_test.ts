/**
 * Each reading subcommand of `tidepool`, and verify and reproduce, run as a
 * child process against the sandbox; every output file is read back and
 * compared with the same read made here through the library.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { Archive } from "../../lib/archive/archive.ts";
import { ResourceSync } from "../../lib/archive/resourcesync/resource_sync.ts";
import { ExpressionSearch } from "../../lib/expressions/expression_search.ts";
import { OceanNode } from "../../lib/ocean/ocean_node.ts";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { csvLines, runTidepool } from "./_run_cli.ts";

const quiet = { progress: false } as const;
const TITLES = `PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?item ?title WHERE { ?item dcterms:title ?title }`;

Deno.test("tidepool: every reading subcommand writes what the library reads", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-reads-" });
  const run = async (args: string[]) => {
    const result = await runTidepool(args, { cwd: dir });
    assert.equal(result.code, 0, `tidepool ${args[0]} failed: ${result.stderr}`);
    return result;
  };
  try {
    await t.step(
      "sparql: a query argument to Parquet, a --file to standard output, an ASK",
      async () => {
        const endpoint = `${sandbox.urls.archive}/api/shinano/dl/letters/sparql`;
        const archive = new Archive(sandbox.urls.archive, {
          ...quiet,
          account: "shinano",
          db: "letters",
        });
        const expected = await archive.sparqlAll(TITLES);
        await run(["sparql", endpoint, TITLES, "--to", "titles.parquet"]);
        const back = await readTable(`${dir}/titles.parquet`);
        assert.deepEqual(back.columnNames(), ["item", "title"]);
        assert.equal(back.numRows(), expected.numRows());
        await Deno.writeTextFile(`${dir}/titles.rq`, TITLES);
        const piped = await run(["sparql", endpoint, "--file", "titles.rq"]);
        const lines = csvLines(piped.stdout);
        assert.equal(lines[0], "item,title");
        assert.equal(lines.length, expected.numRows() + 1 + countNewlinesInCells(expected));
        const ask = await run(["sparql", endpoint, "ASK { ?s ?p ?o }", "--format", "ndjson"]);
        assert.deepEqual(JSON.parse(ask.stdout), { boolean: true });
      },
    );

    await t.step("resourcesync: the list, then a mirror's baseline and its changes", async () => {
      const site = ["--site", "shinano/letters"];
      const expected = await new ResourceSync(sandbox.urls.archive, {
        ...quiet,
        site: "shinano/letters",
      })
        .resourceList();
      await run(["resourcesync", sandbox.urls.archive, ...site, "--to", "list.csv"]);
      assert.equal((await readTable(`${dir}/list.csv`)).numRows(), expected.numRows());
      const mirror = ["resourcesync", sandbox.urls.archive, ...site, "--mirror", "mirror"];
      const baseline = await run([...mirror, "--to", "baseline.json"]);
      assert.match(baseline.stderr, /resourcesync: baseline: /);
      assert.equal((await readTable(`${dir}/baseline.json`)).numRows(), expected.numRows());
      const slug = String(expected.get("loc", 3)).split("/").at(-1)!;
      sandbox.archive.updateResource({ account: "shinano", db: "letters", slug }, {
        title: "Mirrored change",
      });
      const changes = await run([...mirror, "--to", "changes.json"]);
      assert.match(changes.stderr, /resourcesync: changes: /);
      const locs = (await readTable(`${dir}/changes.json`)).array("loc") as string[];
      assert.ok(locs.some((loc) => loc.endsWith(`/${slug}`)), locs.join(", "));
      assert.ok(locs.length < expected.numRows());
    });

    await t.step("orders: one datatoken's orders at one block, as JSON", async () => {
      const subgraph = new Subgraph(sandbox.urls.subgraph, quiet);
      const all = await subgraph.orders();
      const datatoken = String(all.get("datatoken", 0));
      const block = Number(all.get("block", all.numRows() - 1));
      const expected = await subgraph.orders({ datatoken, block });
      const result = await run([
        "orders",
        sandbox.urls.subgraph,
        "--datatoken",
        datatoken,
        "--block",
        String(block),
        "--to",
        "orders.json",
      ]);
      assert.match(result.stderr, new RegExp(`at block ${block} to orders\\.json`));
      const back = await readTable(`${dir}/orders.json`);
      assert.equal(back.numRows(), expected.numRows());
      assert.ok(back.numRows() > 0);
      assert.deepEqual(new Set(back.array("datatoken")), new Set([datatoken]));
    });

    await t.step("assets: datasets with a tag, as Arrow", async () => {
      const expected = await new OceanNode(sandbox.urls.ocean, quiet)
        .searchAssets({ type: "dataset", tags: ["weather"] });
      await run([
        "assets",
        sandbox.urls.ocean,
        "--type",
        "dataset",
        "--tag",
        "weather",
        "--to",
        "weather.arrow",
      ]);
      const back = await readTable(`${dir}/weather.arrow`);
      assert.equal(back.numRows(), expected.numRows());
      assert.deepEqual(back.array("did"), expected.array("did"));
    });

    await t.step("expressions: one emotion in one work, as NDJSON", async () => {
      const expected = await new ExpressionSearch(sandbox.urls.expressions, quiet)
        .searchAll({ emotion: "喜", pid: "990000101" });
      await run([
        "expressions",
        sandbox.urls.expressions,
        "--emotion",
        "喜",
        "--pid",
        "990000101",
        "--to",
        "joy.ndjson",
      ]);
      const back = await readTable(`${dir}/joy.ndjson`);
      assert.equal(back.numRows(), expected.numRows());
      assert.ok(back.numRows() > 0);
      assert.deepEqual(new Set(back.array("emotion")), new Set(["喜"]));
    });

    await t.step("verify: a bundle as saved holds; an edited one does not", async () => {
      await saveBundle(`${dir}/bundle`, {
        tables: { counts: aq.table({ emotion: ["喜", "哀"], n: [3, 4] }) },
        title: "Counts",
        license: "CC-BY-4.0",
      });
      const holds = await run(["verify", "bundle"]);
      assert.match(holds.stdout, /all holds/);
      await Deno.writeTextFile(`${dir}/bundle/counts.csv`, "emotion,n\n喜,5\n");
      const edited = await runTidepool(["verify", "bundle"], { cwd: dir });
      assert.equal(edited.code, 1, edited.stderr);
      assert.match(edited.stdout, /counts\.csv/);
    });

    await t.step("reproduce: a bundle that is not there is one line and a usage code", async () => {
      const missing = await runTidepool(["reproduce", "nowhere", "script.ts"], { cwd: dir });
      assert.equal(missing.code, 2, missing.stderr);
      assert.match(missing.stderr, /^tidepool reproduce: /);
      assert.equal(missing.stderr.trim().split("\n").length, 1);
      assert.doesNotMatch(missing.stderr, /\bat .*\.ts:\d+/, "no stack trace");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Line breaks inside quoted CSV cells: each adds a line to the text. */
function countNewlinesInCells(table: aq.ColumnTable): number {
  let count = 0;
  for (const name of table.columnNames()) {
    for (const value of Array.from(table.array(name) as ArrayLike<unknown>)) {
      if (typeof value === "string") count += value.split("\n").length - 1;
    }
  }
  return count;
}
