/**
 * Subgraph tables carry their provenance: the endpoint, the call, its
 * filters, the block every page was pinned to, and one cache key per page.
 */

import assert from "node:assert/strict";
import { provenance, Subgraph, subgraphInfo } from "../../mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

Deno.test("orders, tokens, nftUpdates, globalStatistics and paginate state their block", async () => {
  const sandbox = serveSubgraph();
  const dir = await Deno.makeTempDir();
  try {
    const sg = new Subgraph(sandbox.endpoint, { progress: false, cache: { dir, mode: "record" } });
    const since = new Date("2026-06-01T00:00:00Z");
    const orders = await sg.orders({ since, orderDirection: "asc" });
    const from = provenance(orders)!;
    assert.equal(from.service, sandbox.endpoint.replace(/\/$/, ""));
    assert.equal(from.operation, "Subgraph.orders");
    assert.deepEqual(from.params, { since: since.toISOString(), orderDirection: "asc" });
    assert.equal(from.rows, orders.numRows());
    assert.equal(from.asOf.block, subgraphInfo(orders)!.block);
    assert.equal(typeof from.asOf.blockTime, "string");
    assert.ok(from.cacheKeys.length >= subgraphInfo(orders)!.pages);

    const tables = {
      "Subgraph.tokens": await sg.tokens({ isDatatoken: true }),
      "Subgraph.nftUpdates": await sg.nftUpdates(),
      "Subgraph.globalStatistics": await sg.globalStatistics(),
      "Subgraph.paginate": await sg.paginate({ entity: "tokens", fields: ["id", "symbol"] }),
    };
    for (const [operation, table] of Object.entries(tables)) {
      const record = provenance(table);
      assert.equal(record?.operation, operation);
      assert.equal(record?.asOf.block, subgraphInfo(table)!.block, operation);
      assert.equal(record?.rows, table.numRows());
    }
    assert.deepEqual(provenance(tables["Subgraph.tokens"])!.params, {
      where: { isDatatoken: true },
    });
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
