/**
 * The subgraph bench compares the same work: the selection its
 * graphql-request alternatives send is the one tidepool's orders() sends,
 * and it brings back every field tidepool reads.
 */

import assert from "node:assert/strict";
import { GraphQLClient } from "graphql-request";
import { orderSelection } from "../../bench/_order_selection.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { Subgraph } from "../../lib/subgraph/mod.ts";

Deno.test("the bench's alternatives ask for the Order fields tidepool's orders() asks for", async () => {
  const sandbox = serveSubgraph({ orders: 5 });
  try {
    const bodies: string[] = [];
    const answers: Record<string, unknown>[] = [];
    const subgraph = new Subgraph(sandbox.endpoint, {
      progress: false,
      fetch: async (input, init) => {
        if (typeof init?.body === "string") bodies.push(init.body);
        const response = await fetch(input, init);
        answers.push(await response.clone().json());
        return response;
      },
    });
    assert.equal((await subgraph.orders()).numRows(), 5);
    // A parallel read asks first for the bounds of its ranges (ids and timestamps only):
    // the rows come with the widest selection.
    const selections = bodies.map((body) => orderSelection(JSON.parse(body).query));
    const rowsAt = selections.reduce(
      (best, s, i) => s.length > selections[best].length ? i : best,
      0,
    );
    const selection = selections[rowsAt];
    // Fields the bench's old hand-written list lacked are asked for now.
    for (const field of ["block", "gasPrice", "estimatedUSDValue", "lastPriceToken"]) {
      assert.match(selection, new RegExp(`\\b${field}\\b`), field);
    }
    const tidepoolRow =
      (answers[rowsAt] as { data: { rows: Record<string, unknown>[] } }).data.rows[0];
    const { orders } = await new GraphQLClient(sandbox.endpoint).request<
      { orders: Record<string, unknown>[] }
    >(`{ orders(first: 1, orderBy: createdTimestamp) ${selection} }`);
    assert.deepEqual(Object.keys(orders[0]).sort(), Object.keys(tidepoolRow).sort());
    assert.deepEqual(orders[0], tidepoolRow, "the same order, field for field");
  } finally {
    await sandbox.close();
  }
});
