/**
 * The subgraph's actions (lib/subgraph/actions/) take the client first and
 * reach its private state only through it (lib/subgraph/_subgraph_handle.ts):
 * an action gives what the method of the same name gives, and an object
 * `new Subgraph` did not make is refused before anything is sent.
 */

import assert from "node:assert/strict";
import { Subgraph } from "../../lib/subgraph/mod.ts";
import * as actions from "../../lib/subgraph/actions/mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

Deno.test("a subgraph action reads what the method of the same name reads", async () => {
  await using sandbox = serveSubgraph();
  const sg = new Subgraph(sandbox.endpoint, { progress: false });
  const byMethod = await sg.tokens({ isDatatoken: true });
  const byAction = await actions.tokens(sg, { isDatatoken: true });
  assert.ok(byMethod.numRows() > 0);
  assert.deepEqual(byAction.objects(), byMethod.objects());
  assert.deepEqual(await actions.meta(sg), await sg.meta());
  const document = "query ($n: Int) { tokens(first: $n, orderBy: id) { id } }";
  assert.deepEqual(
    await actions.query(sg, document, { variables: { n: 2 } }),
    await sg.query(document, { n: 2 }),
  );
});

Deno.test("a subgraph action refuses an object that is not a Subgraph client, sending nothing", async () => {
  await using sandbox = serveSubgraph();
  const answered = () => [...sandbox.queries.values()].reduce((a, b) => a + b, 0);
  const before = answered();
  const fake = { url: sandbox.endpoint };
  const calls: [string, () => Promise<unknown>][] = [
    ["orders", () => actions.orders(fake)],
    ["tokens", () => actions.tokens(fake)],
    ["token", () => actions.token(fake, "0x" + "00".repeat(20))],
    ["meta", () => actions.meta(fake)],
    ["query", () => actions.query(fake, "{ tokens { id } }")],
    ["opc", () => actions.opc(fake)],
    ["orderPages", () => actions.orderPages(fake).next()],
  ];
  for (const [name, call] of calls) {
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof TidepoolError, name);
      assert.match(error.message, /Not a Subgraph client/);
      assert.match(error.hint ?? "", /new Subgraph\(url, options\)/);
      return true;
    });
  }
  assert.equal(answered(), before);
});
