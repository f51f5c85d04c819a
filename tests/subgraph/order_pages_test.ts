/**
 * orderPages deals the walk out in pages of the size asked for: every page
 * but the last holds exactly that many orders, none is empty, and together
 * they are the same orders, once each, in the same order, as orders().
 * The sandbox's 12,000 orders share timestamps across page boundaries, the
 * case where a timestamp cursor's repeated ties used to leave short and
 * empty pages (1000, 998, 999, ..., 472, 0, 207, ...).
 */

import assert from "node:assert/strict";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

Deno.test("orderPages: full pages, none empty, the same orders as orders()", async () => {
  const sandbox = serveSubgraph();
  try {
    const subgraph = new Subgraph(sandbox.endpoint, { progress: false });
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const page of subgraph.orderPages()) {
      sizes.push(page.numRows());
      ids.push(...page.array("id") as string[]);
    }
    const all = await subgraph.orders();
    assert.equal(all.numRows(), 12_000);
    assert.deepEqual(sizes, Array(12).fill(1000));
    assert.deepEqual(ids, all.array("id"));
    assert.equal(new Set(ids).size, ids.length);

    // A filter that leaves a short last page: every page full but the last, which is not empty.
    const sizesSince: number[] = [];
    for await (const page of subgraph.orderPages({ since: "2025-06-01" })) {
      sizesSince.push(page.numRows());
    }
    const since = await subgraph.orders({ since: "2025-06-01" });
    assert.equal(sizesSince.reduce((a, b) => a + b, 0), since.numRows());
    assert.ok(sizesSince.slice(0, -1).every((size) => size === 1000), String(sizesSince));
    assert.ok(sizesSince.at(-1)! > 0 && sizesSince.at(-1)! <= 1000, String(sizesSince));
  } finally {
    await sandbox.close();
  }
});
