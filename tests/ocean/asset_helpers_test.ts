/** tags() counts the catalogue's tags; ordersWithAssets() joins orders to assets keeping their order. */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { ordersWithAssets, rows, TAG_COUNT_COLUMNS, tags } from "../../mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";
import { startSandbox } from "../../lib/sandbox/mod.ts";

Deno.test("tags(): one row per tag with its asset count, most used first", () => {
  const assets = aq.table({
    tags: [["sea", "tide", "sea"], ["sea", "Sea"], [], null, ["tide", "air"]],
  });
  assert.deepEqual(rows(tags(assets), TAG_COUNT_COLUMNS), [
    { tag: "sea", count: 2 },
    { tag: "tide", count: 2 },
    { tag: "Sea", count: 1 },
    { tag: "air", count: 1 },
  ]);
  assert.deepEqual(tags(aq.table({ tags: [] })).columnNames(), ["tag", "count"]);
  assert.throws(
    () => tags(aq.table({ name: ["x"] })),
    /Cannot count tags: the table has no tags column/,
  );
});

Deno.test("ordersWithAssets(): every order keeps its place and gets its asset, any letter case", () => {
  const orders = aq.table({
    id: ["o3", "o1", "o2", "o4"],
    datatoken: ["0xBBBB", "0xaaaa", "0xAAAA", "0xdead"],
  });
  const assets = aq.table({
    did: ["did:op:a", "did:op:b"],
    name: ["Tides", "Winds"],
    type: ["dataset", "algorithm"],
    author: ["R", "S"],
    tags: [["sea"], []],
    datatokens: [["0xaAaA"], ["0x0", "0xbbbb"]],
  });
  const joined = ordersWithAssets(orders, assets);
  assert.deepEqual(joined.array("id"), ["o3", "o1", "o2", "o4"]);
  assert.deepEqual(joined.array("did"), ["did:op:b", "did:op:a", "did:op:a", null]);
  assert.deepEqual(joined.columnNames(), [
    "id",
    "datatoken",
    "did",
    "name",
    "type",
    "author",
    "tags",
  ]);
  assert.throws(
    () => ordersWithAssets(orders, assets, { columns: ["id"] }),
    /the orders already have a column id/,
  );
  assert.throws(() => ordersWithAssets(assets, assets), /the orders table has no column datatoken/);
});

Deno.test("ordersWithAssets() on the sandbox: the subgraph's orders find their catalogue assets", async () => {
  const sandbox = await startSandbox();
  try {
    const node = new OceanNode(sandbox.urls.ocean, { progress: false });
    const subgraph = new Subgraph(sandbox.urls.subgraph, { progress: false });
    const assets = await node.searchAssets({}, { includeUnlisted: true });
    const orders = await subgraph.orders();
    const joined = ordersWithAssets(orders, assets);
    assert.equal(joined.numRows(), orders.numRows());
    assert.deepEqual(joined.array("id"), orders.array("id"));
    const found = (joined.array("did") as unknown[]).filter((did) => did !== null).length;
    assert.ok(found > 0, "some orders are for catalogue assets");
  } finally {
    await sandbox.close();
  }
});
