/**
 * Each page of `Subgraph.orderPages` carries its own provenance: its number,
 * its rows, the cache key of its own request and the block it was read at,
 * also when two page reads are consumed interleaved or at once (the call
 * trace follows each `next()`, and a page read ahead counts for the page it
 * is, not for the one handed on while it was requested).
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { provenance, Subgraph } from "../../mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";

async function keysAlone(sg: Subgraph, options: Parameters<Subgraph["orderPages"]>[0]) {
  const keys: string[][] = [];
  for await (const page of sg.orderPages(options)) keys.push([...provenance(page)!.cacheKeys]);
  return keys;
}

Deno.test("orderPages: every page states its own request, rows and block, interleaved or not", async () => {
  const sandbox = serveSubgraph({ orders: 3_500 });
  const dir = await Deno.makeTempDir();
  try {
    const client = () =>
      new Subgraph(sandbox.endpoint, { progress: false, cache: { dir, mode: "record" } });
    const up = { orderBy: "id", orderDirection: "asc" } as const;
    const down = { orderBy: "id", orderDirection: "desc" } as const;
    const aloneUp = await keysAlone(client(), up);
    const aloneDown = await keysAlone(client(), down);
    assert.equal(aloneUp.length, 4);
    assert.ok(aloneUp.every((keys) => keys.length === 1), JSON.stringify(aloneUp));
    assert.equal(new Set(aloneUp.flat()).size, 4);

    // A new client, the two reads consumed one page each in turn, then both at once.
    const sg = client();
    const a = sg.orderPages(up);
    const b = sg.orderPages(down);
    const pagesA: ColumnTable[] = [];
    const pagesB: ColumnTable[] = [];
    for (let turn = 0; turn < 2; turn++) {
      pagesA.push((await a.next()).value as ColumnTable);
      pagesB.push((await b.next()).value as ColumnTable);
    }
    for (;;) {
      const [stepA, stepB] = await Promise.all([a.next(), b.next()]);
      if (!stepA.done) pagesA.push(stepA.value);
      if (!stepB.done) pagesB.push(stepB.value);
      if (stepA.done && stepB.done) break;
    }
    assert.deepEqual(pagesA.map((page) => provenance(page)!.cacheKeys), aloneUp);
    assert.deepEqual(pagesB.map((page) => provenance(page)!.cacheKeys), aloneDown);

    const whole = provenance(await sg.orders(up))!;
    assert.deepEqual(whole.cacheKeys, aloneUp.flat());
    pagesA.forEach((page, index) => {
      const from = provenance(page)!;
      assert.equal(from.operation, "Subgraph.orderPages");
      assert.deepEqual(from.params, up);
      assert.equal(from.page, index + 1);
      assert.equal(from.rows, page.numRows());
      assert.equal(from.asOf.block, whole.asOf.block);
      assert.equal(from.asOf.deployment, whole.asOf.deployment);
      assert.ok(from.startedAt <= from.endedAt);
    });
    assert.deepEqual(pagesA.map((page) => page.numRows()), [1000, 1000, 1000, 500]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
