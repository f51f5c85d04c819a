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
    // The subgraph records through the cache, so its action lists the cache keys too.
    const cache = { dir: `${dir}/cache`, mode: "record" as const };
    const orders = await new Subgraph(sandbox.urls.subgraph, { ...options, cache }).orders();
    const fromServices: Record<string, ColumnTable> = {
      assets: await new OceanNode(sandbox.urls.ocean, options).searchAssets({}),
      orders,
      letters: (await archive.search({ q: "東京" })).hits,
      records: await archive.harvest({ metadataPrefix: "oai_dc" }),
      emotions: analytics.emotion,
    };
    const tables = {
      ...fromServices,
      bySymbol: orders.groupby("datatokenSymbol").count(),
    };
    for (const [name, table] of Object.entries(tables)) {
      assert.ok(table.numRows() > 0, `${name} has rows`);
    }
    const saved = await saveBundle(`${dir}/bundle`, {
      draft: true,
      tables,
      plots: { emotions: emotionDistributionChart(analytics.emotion) },
      title: "Sandbox bundle",
    });

    const rows = await checkDataPackage(`${dir}/bundle`);
    for (const [name, table] of Object.entries(tables)) {
      const stem = name === "bySymbol" ? "by_symbol" : name;
      assert.equal(rows.get(`${stem}.csv`), table.numRows(), `${name}: CSV rows`);
      assert.equal(rows.get(`${stem}.parquet`), table.numRows(), `${name}: DuckDB rows`);
    }
    const byId = await checkRoCrate(`${dir}/bundle`);
    // Each service's table: the action is the call, from its provenance.
    for (const [name, table] of Object.entries(fromServices)) {
      const from = provenance(table)!;
      assert.ok(from, `${name} has provenance`);
      const action = byId.get(`#create-${name}`)!;
      assert.equal(action.name, `Table ${name} from ${from.operation}`);
      assert.deepEqual((action.object as { "@id": string }[]).slice(0, 2), [
        { "@id": from.service },
        { "@id": `#query-${name}` },
      ]);
      assert.equal(byId.get(from.service)!["@type"], "WebAPI");
      assert.equal(byId.get(`#query-${name}`)!.name, from.operation);
      assert.deepEqual(
        JSON.parse(byId.get(`#query-${name}`)!.value as string),
        JSON.parse(JSON.stringify(from.params)),
      );
      assert.equal(action.startTime, from.startedAt);
      assert.equal(action.endTime, from.endedAt);
      assert.deepEqual(action.result, [{ "@id": `${name}.csv` }, { "@id": `${name}.parquet` }]);
    }
    assert.match(byId.get("#as-of-assets")!.value as string, /"nodeVersion":/);
    assert.match(byId.get("#as-of-orders")!.value as string, /"block":\d+/);
    assert.deepEqual(
      JSON.parse(byId.get("#cache-keys-orders")!.value as string),
      provenance(orders)!.cacheKeys,
    );
    assert.ok(provenance(orders)!.cacheKeys.length > 0);
    // A table made with Arquero verbs has none, and its action says so.
    const derived = byId.get("#create-by_symbol")!;
    assert.equal(derived.object, undefined);
    assert.match(derived.description as string, /The table carries no provenance/);

    // Saved again, the same tables give the same data files, provenance in the Parquet included.
    const again = await saveBundle(`${dir}/again`, {
      draft: true,
      tables,
      plots: { emotions: emotionDistributionChart(analytics.emotion) },
    });
    const dataFiles = (files: typeof saved.files) =>
      files.filter((file) => /\.(csv|parquet|svg)$/.test(file.path))
        .map((file) => [file.path, file.sha256]);
    assert.deepEqual(dataFiles(again.files), dataFiles(saved.files));

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
