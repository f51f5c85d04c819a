/**
 * A bundle of real adapter tables from the sandbox services (Ocean node,
 * subgraph, archive with an API key, expression search) and a chart: every
 * file's hash and every column type check out, DuckDB counts each Parquet
 * file's rows, each CreateAction follows the table's provenance, and no
 * secret reaches any file.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { Archive, ExpressionSearch, OceanNode, Subgraph } from "../../mod.ts";
import { saveBundle } from "../../lib/bundle/mod.ts";
import { startSandbox } from "../../lib/sandbox/mod.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { emotionDistributionChart } from "../../lib/plot/mod.ts";
import { provenance } from "../../lib/table/provenance.ts";
import { checkDataPackage, checkRoCrate } from "./_check_bundle.ts";

Deno.test("saveBundle: sandbox tables and a chart, read back and checked", async () => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir();
  try {
    const options = { progress: false as const, retry: false as const };
    const apiKey = SANDBOX_KEYS.shinanoRead;
    const archive = new Archive(sandbox.urls.archive, {
      ...options,
      account: "shinano",
      db: "letters",
      apiKey,
    });
    const ex = new ExpressionSearch(sandbox.urls.expressions, options);
    const analytics = await ex.analytics();
    const tables: Record<string, ColumnTable> = {
      assets: await new OceanNode(sandbox.urls.ocean, options).searchAssets({}),
      orders: await new Subgraph(sandbox.urls.subgraph, options).orders(),
      letters: (await archive.search({ q: "東京" })).hits,
      records: await archive.harvest({ metadataPrefix: "oai_dc" }),
      emotions: analytics.emotion,
    };
    for (const [name, table] of Object.entries(tables)) {
      assert.ok(table.numRows() > 0, `${name} has rows`);
    }
    const saved = await saveBundle(`${dir}/bundle`, {
      tables,
      plots: { emotions: emotionDistributionChart(analytics.emotion) },
      title: "Sandbox bundle",
    });

    const rows = await checkDataPackage(`${dir}/bundle`);
    for (const [name, table] of Object.entries(tables)) {
      assert.equal(rows.get(`${name}.csv`), table.numRows(), `${name}: CSV rows`);
      assert.equal(rows.get(`${name}.parquet`), table.numRows(), `${name}: DuckDB rows`);
    }
    const byId = await checkRoCrate(`${dir}/bundle`);
    for (const [name, table] of Object.entries(tables)) {
      const action = byId.get(`#create-${name}`)!;
      const from = provenance(table);
      if (from) {
        assert.deepEqual((action.object as { "@id": string }[])[0], { "@id": from.service });
        assert.equal(action.startTime, from.startedAt);
      } else {
        assert.equal(action.object, undefined, `${name}: no provenance, no object`);
        assert.match(action.description as string, /The table carries no provenance/);
      }
    }

    // The node's table records its provenance: the action names the call, the node and its version.
    const assets = byId.get("#create-assets")!;
    assert.equal(assets.name, "Table assets from OceanNode.searchAssets");
    assert.equal(byId.get("#query-assets")!.name, "OceanNode.searchAssets");
    assert.match(byId.get("#as-of-assets")!.value as string, /"nodeVersion":/);

    // No secret in any file: the archive key's secret part, in any case.
    const secret = apiKey.slice(apiKey.indexOf(".") + 1).toLowerCase();
    for (const file of saved.files) {
      const text = new TextDecoder().decode(await Deno.readFile(`${dir}/bundle/${file.path}`));
      assert.ok(!text.toLowerCase().includes(secret), `${file.path} holds no API key secret`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
