/**
 * Typed rows: the row types follow the column schemas, `rows()` reads them
 * without casts, and `deno check` rejects a misspelt column (each
 * `@ts-expect-error` below fails the type check if the error goes away).
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import {
  ASSET_COLUMNS,
  type AssetRow,
  assetsTable,
  defineSchema,
  type ExpressionRow,
  type HarvestRow,
  type OrderRow,
  rows,
  type TableSchema,
} from "../../mod.ts";
import type { RecordRow } from "../../lib/table/mod.ts";
import type { TokenRecord, TokenRow } from "../../lib/subgraph/mod.ts";
import type { Expression } from "../../lib/expressions/types.ts";
import { buildTable } from "../../lib/table/mod.ts";
import { orderSchema } from "../../lib/subgraph/mod.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";

const DDO = {
  id: "did:op:1",
  chainId: 8996,
  nftAddress: "0x0000000000000000000000000000000000000001",
  metadata: { name: "Tides", type: "dataset", author: "Priya Raman", tags: ["sea", "tide"] },
  services: [{ id: "svc-1", type: "compute", datatokenAddress: "0x2" }],
} as unknown as Ddo;

Deno.test("rows(table, ASSET_COLUMNS): typed rows without casts", () => {
  const table = assetsTable([DDO]);
  const [row] = rows(table, ASSET_COLUMNS);
  // Each line type-checks only because the row type is AssetRow.
  const name: string | null = row.name;
  const allowed: boolean | null = row.computeAllowed;
  const created: Date | null = row.created;
  assert.equal(name, "Tides");
  assert.equal(allowed, true);
  assert.equal(created, null);
  assert.deepEqual(row.tags, ["sea", "tide"]);
  // @ts-expect-error: a misspelt column is not a property of AssetRow
  assert.equal(row.computeAllowd, undefined);
  const typed: AssetRow[] = rows<AssetRow>(table);
  // @ts-expect-error: nor through a type argument
  typed[0].nmae;
});

Deno.test("rows(): a table lacking the schema's columns is refused, naming them", () => {
  const table = assetsTable([DDO]).select("did", "name");
  assert.throws(() => rows(table.select("did"), ASSET_COLUMNS), /has no column name, type,/);
  assert.throws(
    () => rows(table, ASSET_COLUMNS),
    /Cannot read the rows as the schema's type: the table has no column type, description, author, license and \d+ more$/m,
  );
});

Deno.test("a schema whose columns and row type differ fails deno check", () => {
  interface Pair {
    a: string | null;
    b: number | null;
  }
  const good: TableSchema<Record<string, unknown>, Pair> = defineSchema([
    { name: "a", type: "string" },
    { name: "b", type: "integer" },
  ]);
  // @ts-expect-error: a column the row type does not have
  const extra: TableSchema<Record<string, unknown>, Pair> = defineSchema([
    { name: "a", type: "string" },
    { name: "b", type: "integer" },
    { name: "c", type: "string" },
  ]);
  // @ts-expect-error: a column of the wrong type
  const wrongType: TableSchema<Record<string, unknown>, Pair> = defineSchema([
    { name: "a", type: "string" },
    { name: "b", type: "date" },
  ]);
  // @ts-expect-error: a misspelt column name
  const misspelt: TableSchema<Record<string, unknown>, Pair> = defineSchema([
    { name: "a", type: "string" },
    { name: "bb", type: "integer" },
  ]);
  assert.deepEqual(rows(buildTable(good, [{ a: "x", b: 2 }]), good), [{ a: "x", b: 2 }]);
  assert.equal([extra, wrongType, misspelt].length, 3);
});

Deno.test("order, expression and harvest rows carry their columns", () => {
  const orders = buildTable(orderSchema, [{ id: "o1", amount: "1.5", gasPrice: "7" }]);
  const [order]: OrderRow[] = rows(orders, orderSchema);
  const amount: number | null = order.amount;
  const gas: bigint | null = order.gasPrice;
  assert.equal(amount, 1.5);
  assert.equal(gas, 7n);
  const hits = aq.table({ id: ["e1"], emotion: ["喜"] });
  const [hit] = rows<ExpressionRow>(hits);
  const emotion: string | null = hit.emotion;
  assert.equal(emotion, "喜");
  const harvest = aq.table({ identifier: ["oai:x:1"], "dc:title": [["題"]] });
  const [record] = rows<HarvestRow>(harvest);
  assert.deepEqual(record["dc:title"], ["題"]);
  // @ts-expect-error: dc:titel is not a Dublin Core element
  record["dc:titel"];
});

Deno.test("token and expression rows are their records' fields, null where missing", () => {
  // Each line type-checks only while the row types derive from the records.
  const tokenRows: [TokenRow, RecordRow<TokenRecord>] extends [RecordRow<TokenRecord>, TokenRow]
    ? true
    : false = true;
  const expressionRows: [ExpressionRow, RecordRow<Expression>] extends
    [RecordRow<Expression>, ExpressionRow] ? true : false = true;
  assert.ok(tokenRows && expressionRows);
  const record: TokenRecord = {
    id: "0xa",
    address: "0xa",
    symbol: "OCEAN",
    name: "Ocean Token",
    isDatatoken: false,
    templateId: null,
    nft: null,
    publishMarketFeeAddress: null,
    publishMarketFeeToken: null,
    publishMarketFeeAmount: null,
    orderCount: 3n,
    createdAt: null,
    dispensers: ["0xd"],
    fixedRateExchanges: [],
  };
  const row: TokenRow = record;
  // @ts-expect-error: a field the record does not have is no column
  const extra: TokenRow = { ...record, decimals: 18 };
  const [read] = rows<TokenRow>(aq.table({ id: ["0xa"], symbol: ["OCEAN"] }));
  // @ts-expect-error: a misspelt column is not a property of TokenRow
  read.symbl;
  const [hit] = rows<ExpressionRow>(aq.table({ id: ["e1"], pages: [[3, 4]] }));
  // @ts-expect-error: nor of ExpressionRow (the wire name body_part is not a column)
  hit.body_part;
  assert.deepEqual([row.dispensers, read.symbol, hit.pages], [["0xd"], "OCEAN", [3, 4]]);
  assert.equal(extra.symbol, "OCEAN");
});
