import assert from "node:assert/strict";
import { columnTypes } from "../../lib/table/mod.ts";
import { withSandbox } from "./_helpers.ts";

Deno.test("upper-case addresses still match: the client lower-cases them", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const rows = sandbox.rows.get("Order")!;
    const consumer = (rows[17].consumer as { id: string }).id;
    const upper = `0x${consumer.slice(2).toUpperCase()}`;
    const expected = rows.filter((row) => (row.consumer as { id: string }).id === consumer);
    // The subgraph itself matches only lower case.
    const raw = await sg.query<{ orders: unknown[] }>(
      "query($c: String) { orders(where: { consumer: $c }) { id } }",
      { c: upper },
    );
    assert.equal(raw.orders.length, 0);
    const table = await sg.orders({ consumer: upper });
    assert.equal(table.numRows(), expected.length);
    assert.ok((table.array("consumer") as string[]).every((c) => c === consumer));

    const token = (rows[3].datatoken as { id: string }).id;
    const byToken = await sg.paginate({
      entity: "orders",
      fields: ["id", "datatoken.id"],
      where: { datatoken: token.toUpperCase().replace("0X", "0x") },
    });
    assert.equal(
      byToken.numRows(),
      rows.filter((row) => (row.datatoken as { id: string }).id === token).length,
    );
  }));

Deno.test("since and until bound the order history", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const rows = sandbox.rows.get("Order")!;
    const since = new Date((rows[2000].createdTimestamp as number) * 1000);
    const until = new Date((rows[5000].createdTimestamp as number) * 1000);
    const table = await sg.orders({ since, until });
    const expected = rows.filter((row) =>
      (row.createdTimestamp as number) >= since.getTime() / 1000 &&
      (row.createdTimestamp as number) < until.getTime() / 1000
    );
    assert.equal(table.numRows(), expected.length);
  }));

Deno.test("filter values travel as variables: quotes and braces cannot change the query", () =>
  withSandbox(async ({ sg }) => {
    const table = await sg.tokens({ symbol: 'x" } ) { id } tokens(where: { symbol: "' });
    assert.equal(table.numRows(), 0);
    await assert.rejects(
      sg.paginate({ entity: "tokens", fields: ["id } evil {"] }),
      /Invalid field path/,
    );
  }));

Deno.test("order table: documented columns and types, provider fee parsed, reuses counted", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const table = await sg.orders({ orderBy: "id" });
    // The columns of ocean-subgraph's Order (tests/subgraph/order_record_test.ts checks each).
    assert.deepEqual(table.columnNames(), [
      "id",
      "tx",
      "createdAt",
      "block",
      "eventIndex",
      "consumer",
      "payer",
      "datatoken",
      "datatokenSymbol",
      "amount",
      "serviceIndex",
      "nftOwner",
      "publishingMarket",
      "publishingMarketToken",
      "publishingMarketTokenSymbol",
      "publishingMarketAmount",
      "consumerMarket",
      "consumerMarketToken",
      "consumerMarketTokenSymbol",
      "consumerMarketAmount",
      "providerFee",
      "providerFeeValidUntil",
      "lastPriceToken",
      "lastPriceTokenSymbol",
      "lastPriceValue",
      "estimatedUSDValue",
      "gasUsed",
      "gasPrice",
      "reuses",
    ]);
    assert.equal(columnTypes(table).createdAt, "date");
    const byId = new Map(sandbox.rows.get("Order")!.map((row) => [row.id, row]));
    const fees = table.array("providerFee") as unknown[];
    const reuses = table.array("reuses") as number[];
    const ids = table.array("id") as string[];
    let parsed = 0;
    ids.forEach((id, i) => {
      const row = byId.get(id)!;
      assert.equal(reuses[i], (row.reuses as unknown[]).length);
      if (typeof row.providerFee === "string" && row.providerFee.startsWith("{")) {
        assert.deepEqual(fees[i], JSON.parse(row.providerFee));
        parsed++;
      } else assert.equal(fees[i], row.providerFee);
    });
    assert.ok(parsed > 10_000);
  }));

Deno.test("tokens, token, nftUpdates, globalStatistics and opc", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const tokens = await sg.tokens({ isDatatoken: true });
    const datatokens = sandbox.rows.get("Token")!.filter((t) => t.isDatatoken);
    assert.equal(tokens.numRows(), datatokens.length);
    assert.equal(columnTypes(tokens).orderCount, "bigint");
    const one = datatokens[5];
    const token = await sg.token(one.id.toUpperCase().replace("0X", "0x"));
    assert.equal(token?.symbol, one.symbol);
    assert.equal(token?.orderCount, BigInt(one.orderCount as string));
    assert.equal(await sg.token(`0x${"0".repeat(40)}`), null);

    const owner = (sandbox.rows.get("Nft")![0].owner as { id: string }).id;
    const updates = await sg.nftUpdates({ owner: owner.toUpperCase().replace("0X", "0x") });
    const expected = sandbox.rows.get("NftUpdate")!.filter((u) =>
      ((u.nft as { owner: { id: string } }).owner.id) === owner
    );
    assert.equal(updates.numRows(), expected.length);
    assert.ok(updates.numRows() > 0);

    const stats = await sg.globalStatistics();
    assert.equal(stats.get("orderCount", 0), sandbox.rows.get("Order")!.length);
    assert.equal(await sg.opc(), null);
  }));

Deno.test("generic paginate: nested fields as dotted columns, timestamps as dates", () =>
  withSandbox(async ({ sg }) => {
    const table = await sg.paginate({
      entity: "tokens",
      fields: ["id", "nft.owner.id", "createdTimestamp", "dispensers.id"],
      where: { isDatatoken: true },
    });
    assert.deepEqual(table.columnNames(), [
      "id",
      "nft.owner.id",
      "createdTimestamp",
      "dispensers.id",
    ]);
    assert.ok(table.get("createdTimestamp", 0) instanceof Date);
    assert.match(table.get("nft.owner.id", 0), /^0x[0-9a-f]{40}$/);
    assert.ok(Array.isArray(table.get("dispensers.id", 0)));
  }));
