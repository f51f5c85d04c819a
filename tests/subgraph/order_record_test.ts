/**
 * The full order record: every field of ocean-subgraph's `Order` entity
 * (schema.graphql of oceanprotocol/ocean-subgraph) reaches the order table,
 * the `fields` option reads fewer, and the sandbox's schema has them all.
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import type { Row } from "../../lib/sandbox/subgraph/_store.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import { withSandbox } from "./_helpers.ts";

/** The fields of `type Order @entity` in ocean-subgraph's schema.graphql, as written there. */
const REAL_ORDER_FIELDS = [
  "id",
  "datatoken",
  "consumer",
  "payer",
  "amount",
  "serviceIndex",
  "nftOwner",
  "publishingMarket",
  "publishingMarketToken",
  "publishingMarketAmmount",
  "providerFee",
  "providerFeeValidUntil",
  "consumerMarket",
  "consumerMarketToken",
  "consumerMarketAmmount",
  "reuses",
  "createdTimestamp",
  "tx",
  "eventIndex",
  "block",
  "lastPriceToken",
  "lastPriceValue",
  "estimatedUSDValue",
  "gasUsed",
  "gasPrice",
];

const ref = (row: Row, key: string, field = "id") =>
  (row[key] as Row | null)?.[field] as string | undefined ?? null;

Deno.test("sandbox subgraph: Order has every field of the real schema", () =>
  withSandbox(async ({ sandbox }) => {
    const response = await fetch(sandbox.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: '{ __type(name: "Order") { fields { name } } }' }),
    });
    const { data } = await response.json();
    const names = (data.__type.fields as { name: string }[]).map((f) => f.name);
    assert.deepEqual([...names].sort(), [...REAL_ORDER_FIELDS].sort());
  }));

Deno.test("order table: every Order field, values as the subgraph holds them", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const table = await sg.orders({ orderBy: "id" });
    const types = columnTypes(table);
    for (const column of ["amount", "publishingMarketAmount", "lastPriceValue", "gasUsed"]) {
      assert.equal(types[column], "number", column);
    }
    assert.equal(types.estimatedUSDValue, "number");
    assert.equal(types.gasPrice, "bigint");
    assert.equal(types.providerFeeValidUntil, "date");
    assert.equal(types.block, "integer");
    const byId = new Map(sandbox.rows.get("Order")!.map((row) => [row.id, row]));
    const rows = table.objects() as Record<string, unknown>[];
    assert.equal(rows.length, byId.size);
    let tiny = 0;
    for (const row of rows) {
      const order = byId.get(row.id as string)!;
      assert.equal(row.block, order.block);
      assert.equal(row.eventIndex, order.eventIndex);
      assert.equal(row.amount, Number(order.amount));
      assert.equal(row.nftOwner, ref(order, "nftOwner"));
      assert.equal(row.publishingMarket, ref(order, "publishingMarket"));
      assert.equal(row.publishingMarketToken, ref(order, "publishingMarketToken", "address"));
      assert.equal(row.publishingMarketAmount, Number(order.publishingMarketAmmount));
      assert.equal(row.consumerMarket, ref(order, "consumerMarket"));
      assert.equal(
        row.consumerMarketAmount,
        order.consumerMarketAmmount === null ? null : Number(order.consumerMarketAmmount),
      );
      assert.equal(row.lastPriceToken, ref(order, "lastPriceToken", "address"));
      assert.equal(row.lastPriceValue, Number(order.lastPriceValue));
      assert.equal(row.estimatedUSDValue, Number(order.estimatedUSDValue));
      assert.equal(row.gasUsed, Number(order.gasUsed));
      assert.equal(row.gasPrice, BigInt(order.gasPrice as string), "gas price exact");
      const until = order.providerFeeValidUntil as string | null;
      assert.equal(
        (row.providerFeeValidUntil as Date | null)?.getTime() ?? null,
        until === null || until === "0" ? null : Number(until) * 1000,
      );
      if (order.publishingMarketAmmount === "0.000000000000000001") {
        assert.equal(row.publishingMarketAmount, 1e-18, "an 18-decimal fee as a double");
        tiny++;
      }
    }
    assert.ok(tiny > 0, "the seed has 18-decimal fees");
    // A revenue figure: sums over the columns are plain numbers.
    const usd = table.rollup({ usd: "d => op.sum(d.estimatedUSDValue)" }).get("usd", 0);
    assert.ok(Number.isFinite(usd) && usd > 0);
  }));

Deno.test("order table: fields chooses the columns and the query reads only those", () =>
  withSandbox(async ({ sg, sent }) => {
    const table = await sg.orders({ fields: ["estimatedUSDValue", "createdAt", "consumer"] });
    assert.deepEqual(table.columnNames(), ["id", "createdAt", "consumer", "estimatedUSDValue"]);
    assert.equal(table.numRows(), 12_000);
    const query = sent.find((r) => r.query.includes("_meta"))!.query;
    assert.match(query, /estimatedUSDValue/);
    for (const absent of ["gasPrice", "providerFee", "nftOwner", "reuses", "datatoken"]) {
      assert.ok(!query.includes(absent), `${absent} is not asked for`);
    }
    const before = sent.length;
    const error = await sg.orders({ fields: ["amount", "revenue" as "amount"] }).catch((e) => e);
    assert.ok(error instanceof TidepoolError);
    assert.match(error.message, /^Unknown order fields: revenue/);
    assert.match(error.hint ?? "", /estimatedUSDValue/);
    assert.equal(sent.length, before, "nothing was sent");
  }));
