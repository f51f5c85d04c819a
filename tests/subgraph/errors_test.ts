import assert from "node:assert/strict";
import { ProtocolError } from "../../lib/http/mod.ts";
import { StaleSubgraphError, Subgraph, subgraphInfo } from "../../lib/subgraph/mod.ts";
import { withSandbox } from "./_helpers.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

Deno.test("GraphQL errors with HTTP 200 throw a ProtocolError with every message and partial data", () =>
  withSandbox(async ({ sandbox, sg }) => {
    sandbox.faults.graphqlErrors = ["Store error: database unavailable", "Second failure"];
    const error = await sg.orders().then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ProtocolError, String(error));
    assert.deepEqual(error.messages, ["Store error: database unavailable", "Second failure"]);
    assert.match(error.message, /2 GraphQL errors \(HTTP 200\)/);
    const data = error.data as { rows: unknown[]; _meta: unknown };
    assert.equal(data.rows.length, 1000);
    assert.ok(data._meta);
  }));

Deno.test("sandbox rules: first above 1,000 and skip above 5,000 are GraphQL errors", () =>
  withSandbox(async ({ sg }) => {
    await assert.rejects(
      sg.query("{ orders(first: 1001) { id } }"),
      (e: unknown) => e instanceof ProtocolError && /first.*1000/.test(e.messages[0]),
    );
    await assert.rejects(
      sg.query("{ orders(skip: 5001) { id } }"),
      (e: unknown) => e instanceof ProtocolError && /skip.*5000/.test(e.messages[0]),
    );
    const page = await sg.query<{ orders: unknown[] }>("{ orders { id } }");
    assert.equal(page.orders.length, 100);
    await assert.rejects(sg.query("{ nosuchfield }"), ProtocolError);
  }));

Deno.test("a lagging subgraph: empty answer flagged stale with a warning", () =>
  withSandbox(async ({ sandbox, sg, warnings }) => {
    sandbox.faults.lagBlock = 11_000_000;
    const orders = await sg.orders({ consumer: `0x${"A".repeat(40)}` });
    assert.equal(orders.numRows(), 0);
    assert.deepEqual(orders.columnNames().slice(0, 3), ["id", "tx", "createdAt"]);
    const info = subgraphInfo(orders)!;
    assert.equal(info.stale, true);
    assert.equal(info.block, 11_000_000);
    assert.match(info.reasons.join(" "), /start block 11459549/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /may be stale/);
    assert.equal((await sg.meta()).block, 11_000_000);
    // One-object answers are checked too.
    assert.equal(await sg.token(`0x${"1".repeat(40)}`), null);
    assert.equal(warnings.length, 2);
  }));

Deno.test("indexing errors: rows still come, flagged stale", () =>
  withSandbox(async ({ sandbox, sg, warnings }) => {
    sandbox.faults.indexingErrors = true;
    const stats = await sg.globalStatistics();
    assert.equal(stats.numRows(), 1);
    assert.equal(subgraphInfo(stats)?.stale, true);
    assert.match(warnings[0], /indexing errors/);
  }));

Deno.test("a healthy subgraph is not flagged and does not warn", () =>
  withSandbox(async ({ sg, warnings }) => {
    const stats = await sg.globalStatistics();
    assert.equal(subgraphInfo(stats)?.stale, false);
    assert.deepEqual(warnings, []);
  }));

Deno.test("minBlock turns staleness into a StaleSubgraphError", () =>
  withSandbox(async ({ sandbox, sg, sent }) => {
    await assert.rejects(
      sg.orders({ minBlock: sandbox.headBlock + 1 }),
      (e: unknown) => e instanceof StaleSubgraphError && e.block === sandbox.headBlock,
    );
    // Stopped after the first page: no page pinned to its block went out.
    assert.ok(sent.length <= 2 && sent.every((request) => request.variables.block === undefined));
    sandbox.faults.lagBlock = 11_000_000;
    const strict = new Subgraph(sandbox.endpoint, { progress: false, minBlock: 11_459_549 });
    await assert.rejects(strict.orders(), StaleSubgraphError);
    await assert.rejects(strict.token(`0x${"1".repeat(40)}`), StaleSubgraphError);
  }));

Deno.test("an empty answer from a healthy subgraph is still reported, with its block", async () => {
  const sandbox = serveSubgraph({ orders: 200 });
  try {
    const warnings: string[] = [];
    const sg = new Subgraph(sandbox.endpoint, { progress: false, warn: (m) => warnings.push(m) });
    const none = await sg.orders({ consumer: `0x${"0".repeat(39)}1` });
    assert.equal(none.numRows(), 0);
    const info = subgraphInfo(none)!;
    assert.equal(info.stale, true);
    assert.match(info.reasons.join(" "), /the answer is empty at block \d+/);
    assert.equal(warnings.length, 1);
    const some = await sg.orders();
    assert.equal(subgraphInfo(some)?.stale, false, "a non-empty answer from a healthy subgraph");
  } finally {
    await sandbox.close();
  }
});

Deno.test("minBlock does not turn an empty answer from a current subgraph into an error", async () => {
  const sandbox = serveSubgraph({ orders: 200 });
  try {
    const sg = new Subgraph(sandbox.endpoint, {
      progress: false,
      warn: () => {},
      minBlock: sandbox.headBlock,
    });
    const none = await sg.orders({ consumer: `0x${"0".repeat(39)}1` });
    assert.equal(none.numRows(), 0);
    assert.equal(subgraphInfo(none)?.stale, true, "still reported");
    assert.equal(await sg.token(`0x${"0".repeat(40)}`), null, "an unknown token is null");
    await assert.rejects(
      new Subgraph(sandbox.endpoint, { progress: false, minBlock: sandbox.headBlock + 1 })
        .orders(),
      StaleSubgraphError,
    );
  } finally {
    await sandbox.close();
  }
});
