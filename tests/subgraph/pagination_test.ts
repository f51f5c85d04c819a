import assert from "node:assert/strict";
import { subgraphInfo } from "../../lib/subgraph/mod.ts";
import { sortedIds, withSandbox } from "./_helpers.ts";

Deno.test("orders by id: every one of the 12,000 orders exactly once, in id order", () =>
  withSandbox(async ({ sandbox, sg, sent }) => {
    const rows = sandbox.rows.get("Order")!;
    assert.ok(rows.length >= 12_000);
    const table = await sg.orders({ orderBy: "id" });
    const ids = table.array("id") as string[];
    assert.deepEqual(ids, sortedIds(rows, "id"));
    assert.equal(new Set(ids).size, rows.length);
    // Cursor pages of 1,000, never skip.
    assert.equal(sent.length, Math.ceil(rows.length / 1000) + (rows.length % 1000 === 0 ? 1 : 0));
    for (const request of sent) {
      assert.ok(!/skip/.test(request.query), request.query);
      assert.equal(request.variables.first, 1000);
    }
    assert.equal(subgraphInfo(table)?.pages, sent.length);
  }, { concurrency: 1 }));

Deno.test("orders by createdTimestamp: complete and in order with ties across page boundaries", () =>
  withSandbox(async ({ sandbox, sg, sent }) => {
    const rows = sandbox.rows.get("Order")!;
    const expected = sortedIds(rows, "createdTimestamp");
    const time = new Map(rows.map((row) => [row.id, row.createdTimestamp as number]));
    // The data really has ties across page boundaries and a tie group larger than a page.
    const boundaryTies = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].filter((k) =>
      time.get(expected[k * 1000 - 1]) === time.get(expected[k * 1000])
    );
    assert.ok(boundaryTies.length >= 2, `ties at ${boundaryTies}`);
    const groups = new Map<number, number>();
    for (const t of time.values()) groups.set(t, (groups.get(t) ?? 0) + 1);
    assert.ok(Math.max(...groups.values()) > 1000);

    const table = await sg.orders();
    const ids = table.array("id") as string[];
    assert.equal(ids.length, rows.length);
    assert.equal(new Set(ids).size, rows.length);
    assert.deepEqual(ids, expected);
    const dates = table.array("createdAt") as Date[];
    assert.ok(dates.every((d, i) => d instanceof Date && d.getTime() === time.get(ids[i])! * 1000));
    // Later pages use a value cursor (or an id cursor inside the big tie), never skip.
    assert.ok(
      sent.slice(1).every((r) => JSON.stringify(r.variables.where).includes("createdTimestamp")),
    );
    assert.ok(sent.every((r) => !/skip/.test(r.query)));
  }, { concurrency: 1 }));

Deno.test("descending order and tiny pages: still every row once, ties in the server's order", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const rows = sandbox.rows.get("NftUpdate")!;
    const table = await sg.paginate({
      entity: "nftUpdates",
      fields: ["id", "timestamp"],
      orderBy: "timestamp",
      orderDirection: "desc",
      pageSize: 97,
    });
    assert.deepEqual(table.array("id"), sortedIds(rows, "timestamp", "desc"));
  }));

Deno.test("every page is pinned to the block of the first page's _meta", () =>
  withSandbox(async ({ sandbox, sg, sent }) => {
    const table = await sg.orders({ orderBy: "id" });
    // The pages of 1,000 (a parallel read also asks for the one highest row, at the head).
    const pages = sent.filter((request) => request.variables.first === 1000);
    assert.equal(pages[0].variables.block, undefined);
    assert.ok(pages[0].query.includes("_meta"));
    assert.ok(pages.length > 10);
    for (const request of pages.slice(1)) {
      assert.deepEqual(request.variables.block, { number: sandbox.headBlock });
    }
    assert.equal(subgraphInfo(table)?.block, sandbox.headBlock);
  }));

Deno.test("a caller's block hides rows created after it", () =>
  withSandbox(async ({ sandbox, sg }) => {
    const rows = sandbox.rows.get("Order")!;
    const middle = rows[Math.floor(rows.length / 2)].block as number;
    const table = await sg.orders({ block: middle });
    const expected = rows.filter((row) => (row.block as number) <= middle).length;
    assert.equal(table.numRows(), expected);
    assert.ok(expected < rows.length);
    assert.equal(subgraphInfo(table)?.block, middle);
  }));
