/**
 * Tables a helper derives from tables (tags, kwic, ordersWithAssets,
 * compareOrders) state the helper as their operation and their inputs'
 * provenances as its parameters; derived only from tables without
 * provenance (assetsTable of DDOs one holds, tables made here), they have none.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { assetsTable, compareOrders, kwic, ordersWithAssets, provenance, tags } from "../../mod.ts";
import { readTable, saveTable } from "../../mod.ts";
import { attachProvenance } from "../../lib/table/provenance.ts";
import { TIDEPOOL_VERSION } from "../../lib/version.ts";

function called(table: aq.ColumnTable, fields: {
  service: string;
  operation: string;
  asOf: Record<string, string | number>;
  cacheKeys: string[];
  startedAt: string;
  endedAt: string;
}) {
  return attachProvenance(table, { ...fields, params: { q: 1 }, tidepoolVersion: "0.0.1" });
}

const NODE = "http://127.0.0.1:8001";
const GRAPH = "http://127.0.0.1:8002/subgraphs/name/o/s";

function searched() {
  return called(
    aq.table({
      did: ["did:op:1", "did:op:2"],
      name: ["Tides", "Winds"],
      tags: [["sea", "tide"], ["sea"]],
      datatokens: [["0xAA"], ["0xbb"]],
    }),
    {
      service: NODE,
      operation: "OceanNode.searchAssets",
      asOf: { nodeVersion: "2.1.0", block: 10 },
      cacheKeys: ["k-assets"],
      startedAt: "2026-01-01T00:00:02.000Z",
      endedAt: "2026-01-01T00:00:03.000Z",
    },
  );
}

function ordered() {
  return called(aq.table({ tx: ["0x1", "0x2"], datatoken: ["0xaa", "0xcc"] }), {
    service: GRAPH,
    operation: "Subgraph.orders",
    asOf: { block: 12, deployment: "Qm" },
    cacheKeys: ["k-orders-1", "k-orders-2", "k-assets"],
    startedAt: "2026-01-01T00:00:01.000Z",
    endedAt: "2026-01-01T00:00:04.000Z",
  });
}

Deno.test("tags: the helper is the operation, the assets' provenance its parameter; none without", () => {
  const assets = searched();
  const counts = tags(assets);
  const from = provenance(counts)!;
  assert.equal(from.operation, "tags");
  assert.equal(from.service, NODE);
  assert.deepEqual(from.params, { assets: provenance(assets) });
  assert.equal(from.tidepoolVersion, TIDEPOOL_VERSION);
  assert.deepEqual(from.asOf, { nodeVersion: "2.1.0", block: 10 });
  assert.deepEqual(from.cacheKeys, ["k-assets"]);
  assert.equal(from.startedAt, "2026-01-01T00:00:02.000Z");
  assert.equal(from.endedAt, "2026-01-01T00:00:03.000Z");
  assert.equal(from.rows, 2);

  // Derived only from tables without provenance (DDOs one holds, a table made here): none.
  const held = assetsTable([{
    id: `did:op:${"a".repeat(64)}`,
    version: "4.1.0",
    chainId: 8996,
    nftAddress: `0x${"1".repeat(40)}`,
    services: [],
    metadata: {
      type: "dataset",
      name: "Tides",
      description: "",
      author: "Me",
      license: "CC0-1.0",
      created: "2025-01-01T00:00:00Z",
      updated: "2025-01-01T00:00:00Z",
      tags: ["sea"],
    },
  }]);
  assert.equal(provenance(held), undefined);
  assert.equal(provenance(tags(held)), undefined);
  assert.equal(provenance(kwic(aq.table({ title: ["t"], context: ["涙"] }), "涙")), undefined);
  assert.equal(
    provenance(ordersWithAssets(
      aq.table({ datatoken: ["0xaa"] }),
      aq.table({
        datatokens: [["0xaa"]],
        did: ["d"],
        name: ["n"],
        type: ["dataset"],
        author: ["a"],
        tags: [[]],
      }),
    )),
    undefined,
  );
});

Deno.test("kwic: the hits' provenance and the keyword", () => {
  const hits = called(aq.table({ title: ["こころ"], context: ["涙を、涙を"] }), {
    service: "http://127.0.0.1:8003",
    operation: "ExpressionSearch.searchAll",
    asOf: {},
    cacheKeys: ["k-hits"],
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: "2026-01-01T00:00:00.000Z",
  });
  const lines = kwic(hits, "涙", { span: 2 });
  const from = provenance(lines)!;
  assert.equal(from.operation, "kwic");
  assert.deepEqual(from.params, { hits: provenance(hits), keyword: "涙", span: 2 });
  assert.equal(from.rows, 2);
  assert.deepEqual(provenance(kwic(hits, "涙"))!.params, { hits: provenance(hits), keyword: "涙" });
});

Deno.test("two inputs: services joined, keys once each, widest times, disputed as-of left out", () => {
  const orders = ordered();
  const assets = searched();
  const joined = ordersWithAssets(orders, assets, { columns: ["did", "name"] });
  const from = provenance(joined)!;
  assert.equal(from.operation, "ordersWithAssets");
  assert.equal(from.service, `${GRAPH} + ${NODE}`);
  assert.deepEqual(from.params, {
    orders: provenance(orders),
    assets: provenance(assets),
    columns: ["did", "name"],
  });
  assert.deepEqual(from.cacheKeys, ["k-orders-1", "k-orders-2", "k-assets"]);
  assert.equal(from.startedAt, "2026-01-01T00:00:01.000Z");
  assert.equal(from.endedAt, "2026-01-01T00:00:04.000Z");
  assert.deepEqual(from.asOf, { deployment: "Qm", nodeVersion: "2.1.0" });
  assert.equal(from.rows, 2);

  const diff = compareOrders(aq.table({ tx: ["0x2", "0x3"] }), orders);
  const compared = provenance(diff)!;
  assert.equal(compared.operation, "compareOrders");
  assert.equal(compared.service, GRAPH);
  assert.deepEqual(compared.params, { fromChain: null, fromSubgraph: provenance(orders) });
  assert.equal(compared.rows, 3);
});

Deno.test("a derived table's provenance travels with saveTable and readTable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const counts = tags(searched());
    await saveTable(`${dir}/tags.csv`, counts);
    const read = provenance(await readTable(`${dir}/tags.csv`));
    assert.equal(read?.operation, "tags");
    assert.deepEqual(read, provenance(counts));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
