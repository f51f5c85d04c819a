/**
 * The notebook display says where a table came from: a first line in the
 * text form and a line under the HTML table, for tables a call returned.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { tableHtml, tableText } from "../../lib/notebook/mod.ts";
import { provenanceLine } from "../../lib/notebook/provenance_line.ts";
import { attachProvenance } from "../../lib/table/provenance.ts";

function fromNode() {
  return attachProvenance(aq.table({ did: Array.from({ length: 1234 }, (_, i) => `d${i}`) }), {
    service: "http://127.0.0.1:8001",
    operation: "OceanNode.searchAssets",
    params: { filter: { type: "dataset" } },
    tidepoolVersion: "0.1.0",
    startedAt: "2026-11-23T10:00:00.000Z",
    endedAt: "2026-11-23T10:00:01.250Z",
    asOf: { nodeVersion: "2.1.0" },
    cacheKeys: [],
  });
}

Deno.test("the text form of a table starts with where it came from", () => {
  const text = tableText(fromNode(), { rows: 2 });
  const line =
    "# OceanNode.searchAssets · http://127.0.0.1:8001 · 2026-11-23T10:00:01Z · 1,234 rows · as of node 2.1.0";
  assert.equal(provenanceLine(fromNode()), line);
  assert.equal(text.split("\n")[0], line);
  assert.equal(text.split("\n")[1].trim(), "did");
});

Deno.test("the HTML form says it under the table; a table made here has no line", () => {
  assert.match(tableHtml(fromNode()), /From OceanNode\.searchAssets · http:\/\/127\.0\.0\.1:8001/);
  const plain = aq.table({ n: [1] });
  assert.equal(provenanceLine(plain), undefined);
  assert.equal(tableText(plain).split("\n")[0], "n");
  assert.doesNotMatch(tableHtml(plain), /From /);
});

Deno.test("a page of a page-by-page read says which page it is", () => {
  const page = attachProvenance(aq.table({ id: ["o1", "o2"] }), {
    service: "http://127.0.0.1:8002/subgraphs/name/o/s",
    operation: "Subgraph.orderPages",
    params: {},
    tidepoolVersion: "0.1.0",
    startedAt: "2026-11-23T10:00:00.000Z",
    endedAt: "2026-11-23T10:00:00.500Z",
    asOf: { block: 42 },
    cacheKeys: ["k2"],
    page: 2,
  });
  assert.equal(
    provenanceLine(page),
    "# Subgraph.orderPages, page 2 · http://127.0.0.1:8002/subgraphs/name/o/s · " +
      "2026-11-23T10:00:00Z · 2 rows · as of block 42",
  );
});
