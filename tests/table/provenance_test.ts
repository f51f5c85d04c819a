/**
 * provenance(table): the record an adapter attaches is read back frozen,
 * with the table's own row count, and stays out of the table's columns;
 * tables made by Arquero verbs or by hand have none.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { type Provenance, provenance } from "../../mod.ts";
import { attachProvenance } from "../../lib/table/provenance.ts";
import { TIDEPOOL_VERSION } from "../../lib/version.ts";

const RECORD: Omit<Provenance, "rows"> = {
  service: "http://127.0.0.1:8000",
  operation: "OceanNode.searchAssets",
  params: { type: "dataset", tags: ["weather"] },
  tidepoolVersion: TIDEPOOL_VERSION,
  startedAt: "2026-11-23T10:00:00.000Z",
  endedAt: "2026-11-23T10:00:01.000Z",
  asOf: { nodeVersion: "2.1.0" },
  cacheKeys: ["abc"],
};

Deno.test("provenance reads back what the adapter attached, rows from the table", () => {
  const table = aq.table({ id: ["a", "b", "c"] });
  assert.equal(attachProvenance(table, { ...RECORD, rows: 99 }), table);
  const from = provenance(table);
  assert.deepEqual(from, { ...RECORD, rows: 3 });
  assert.ok(Object.isFrozen(from) && Object.isFrozen(from!.params));
  assert.deepEqual(table.columnNames(), ["id"]);
});

Deno.test("provenance belongs to the returned table, not to tables derived from it", () => {
  const table = attachProvenance(aq.table({ n: [1, 2] }), RECORD);
  assert.equal(provenance(table.filter((d: { n: number }) => d.n > 1)), undefined);
  assert.equal(provenance(aq.table({ n: [1] })), undefined);
});

Deno.test("the tidepool version is deno.json's", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.match(TIDEPOOL_VERSION, /^\d+\.\d+\.\d+/);
  assert.equal(TIDEPOOL_VERSION, config.version);
});
