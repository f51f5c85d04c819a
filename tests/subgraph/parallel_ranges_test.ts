/**
 * Subgraph tables read in ranges of the order field, several requests in
 * flight: the same table (digest) as the one-at-a-time read, the cap
 * counted at a loopback gate, one pinned block even while the head moves,
 * a server that ignores a range's upper bound, and a 503 storm.
 */

import assert from "node:assert/strict";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { Subgraph, subgraphInfo } from "../../lib/subgraph/mod.ts";
import { tableDigest } from "../../lib/table/mod.ts";
import { startNetworkGate } from "../../bench/_network_gate.ts";
import { sortedIds } from "./_helpers.ts";

const quiet = { progress: false as const, warn: () => {} };

/** The endpoint path below the gate's URL, as the sandbox serves it. */
function through(gateUrl: string, endpoint: string): string {
  return gateUrl + new URL(endpoint).pathname;
}

const READS: [string, (sg: Subgraph) => Promise<import("arquero").ColumnTable>][] = [
  ["orders in time order", (sg) => sg.orders()],
  ["orders in id order", (sg) => sg.orders({ orderBy: "id" })],
  ["orders of a window", (sg) => sg.orders({ since: "2025-09-01", until: "2026-03-01" })],
  ["tokens", (sg) => sg.tokens()],
  ["NFT updates", (sg) => sg.nftUpdates()],
  [
    "paginate by block",
    (sg) => sg.paginate({ entity: "orders", fields: ["id", "block"], orderBy: "block" }),
  ],
];

Deno.test("each parallel subgraph read gives the one-at-a-time table, within the cap at the server", async () => {
  const sandbox = serveSubgraph({ orders: 4_000 });
  const gate = startNetworkGate(sandbox.url, { delayMs: 5 });
  try {
    const endpoint = through(gate.url, sandbox.endpoint);
    for (const [name, read] of READS) {
      const one = await read(new Subgraph(endpoint, { ...quiet, concurrency: 1 }));
      for (const concurrency of [6]) {
        gate.inFlight.max = 0;
        const table = await read(new Subgraph(endpoint, { ...quiet, concurrency }));
        assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, `${name}, ${concurrency}`);
        assert.equal(table.numRows(), one.numRows());
        assert.ok(gate.inFlight.max <= concurrency, `${name}: ${gate.inFlight.max} in flight`);
        if (one.numRows() > 2_000) assert.ok(gate.inFlight.max > 1, `${name} ran one at a time`);
      }
    }
  } finally {
    await gate.close();
    await sandbox.close();
  }
});

Deno.test("in ranges, every order comes once, in the order the sandbox's own rows sort to", async () => {
  const sandbox = serveSubgraph({ orders: 12_000 });
  try {
    const rows = sandbox.rows.get("Order")!;
    const sg = new Subgraph(sandbox.endpoint, { ...quiet, concurrency: 8 });
    const byTime = (await sg.orders()).array("id") as string[];
    assert.deepEqual(byTime, sortedIds(rows, "createdTimestamp"));
    const byId = (await sg.orders({ orderBy: "id" })).array("id") as string[];
    assert.deepEqual(byId, sortedIds(rows, "id"));
  } finally {
    await sandbox.close();
  }
});

Deno.test("every range reads at the block of the first page, even when the head moves meanwhile", async () => {
  const sandbox = serveSubgraph({ orders: 6_000 });
  const lagged = sandbox.headBlock - 40_000;
  sandbox.faults.lagBlock = lagged;
  const blocks: (number | undefined)[] = [];
  try {
    const sg = new Subgraph(sandbox.endpoint, {
      ...quiet,
      concurrency: 6,
      fetch: (input, init) => {
        const { variables } = JSON.parse(String(init?.body));
        if (variables.first === 1000) blocks.push(variables.block?.number);
        // The subgraph catches up as soon as the first page is answered.
        return fetch(input, init).finally(() => {
          if (variables.first === 1000) sandbox.faults.lagBlock = undefined;
        });
      },
    });
    const table = await sg.orders();
    assert.equal(subgraphInfo(table)?.block, lagged);
    assert.equal(blocks[0], undefined, "the first page is read at the head it reports");
    assert.ok(blocks.length > 3);
    assert.deepEqual(new Set(blocks.slice(1)), new Set([lagged]));
    // Checked apart from the parallel read: the one-at-a-time read pinned to that block.
    const pinned = await new Subgraph(sandbox.endpoint, { ...quiet, concurrency: 1 })
      .orders({ block: lagged });
    assert.equal(tableDigest(table).sha256, tableDigest(pinned).sha256);
    assert.ok(table.numRows() < 6_000, "rows after the pinned block stay out");
  } finally {
    await sandbox.close();
  }
});

Deno.test("a server that ignores a range's upper bound gives no row twice", async () => {
  const sandbox = serveSubgraph({ orders: 6_000 });
  try {
    const ignoring: typeof fetch = (input, init) => {
      const body = JSON.parse(String(init?.body));
      // Every upper bound dropped: a range reads on past its end.
      for (const key of Object.keys(body.variables.where ?? {})) {
        if (key.endsWith("_lt")) delete body.variables.where[key];
      }
      return fetch(input, { ...init, body: JSON.stringify(body) });
    };
    for (const orderBy of ["createdTimestamp", "id"] as const) {
      const one = await new Subgraph(sandbox.endpoint, { ...quiet, concurrency: 1 })
        .orders({ orderBy });
      const table = await new Subgraph(sandbox.endpoint, {
        ...quiet,
        concurrency: 8,
        fetch: ignoring,
      })
        .orders({ orderBy });
      assert.equal(new Set(table.array("id") as string[]).size, table.numRows());
      assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, orderBy);
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("a 503 storm: the parallel read completes with the same table, within the cap", async () => {
  const sandbox = serveSubgraph({ orders: 5_000 });
  const gate = startNetworkGate(sandbox.url, { unavailableEvery: 3, retryAfterSeconds: 1 });
  try {
    const endpoint = through(gate.url, sandbox.endpoint);
    const one = await new Subgraph(sandbox.endpoint, { ...quiet, concurrency: 1 }).orders();
    const table = await new Subgraph(endpoint, { ...quiet, concurrency: 8, retry: { retries: 8 } })
      .orders();
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
    assert.ok(gate.refused >= 2, `${gate.refused} refusals`);
    assert.ok(gate.inFlight.max <= 8);
    // That every request keeps the pause is proved at a quicker server: tests/http/polite_pacing_test.ts.
  } finally {
    await gate.close();
    await sandbox.close();
  }
});

Deno.test("a 503 storm at concurrency 8 behind a slow network: every range completes on the default retries", async () => {
  // The bench's storm, scaled down: every third request refused with a short Retry-After,
  // pages that take their time. The refused request used to sleep apart while fresh pages
  // took the slots, meet the every-third count again each time, and fail the read.
  const sandbox = serveSubgraph({ orders: 30_000 });
  const gate = startNetworkGate(sandbox.url, {
    delayMs: 20,
    unavailableEvery: 3,
    retryAfterSeconds: 0.05,
  });
  try {
    const one = await new Subgraph(sandbox.endpoint, { ...quiet, concurrency: 1 }).orders();
    const table = await new Subgraph(through(gate.url, sandbox.endpoint), {
      ...quiet,
      concurrency: 8,
    }).orders();
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
    assert.ok(gate.refused >= 10, `${gate.refused} refusals`);
    assert.ok(gate.inFlight.max <= 8, `${gate.inFlight.max} in flight`);
    // Pauses of 50 ms are too short to judge from arrival times on a loaded machine (a request
    // already on its way arrives late); tests/http/polite_pacing_test.ts proves them at 1 s.
  } finally {
    await gate.close();
    await sandbox.close();
  }
});
