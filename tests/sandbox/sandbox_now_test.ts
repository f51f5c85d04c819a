/**
 * The sandbox's fixed "now": every seeded date lies at or before SANDBOX_NOW,
 * the subgraph's head block is mined at it, and "the last 90 days" asked of the
 * sandbox means the 90 days before it.
 */

import assert from "node:assert/strict";
import { Archive } from "../../lib/archive/mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { SANDBOX_NOW, startSandbox } from "../../lib/sandbox/mod.ts";
import { Subgraph, subgraphInfo } from "../../lib/subgraph/mod.ts";
import type { ColumnTable as Table } from "arquero";

const DAY_MS = 86_400_000;
const quiet = { progress: false, warn: () => {} } as const;

/** Every non-null date of the named columns, as milliseconds. */
function times(table: Table, ...columns: string[]): number[] {
  return columns.flatMap((column) =>
    (Array.from(table.array(column)) as (Date | null)[])
      .filter((value): value is Date => value !== null)
      .map((value) => value.getTime())
  );
}

function assertNotAfterNow(label: string, values: number[]): void {
  assert.ok(values.length > 0, `${label}: no dates to check`);
  const latest = Math.max(...values);
  assert.ok(
    latest <= SANDBOX_NOW,
    `${label}: ${new Date(latest).toISOString()} lies after SANDBOX_NOW ` +
      new Date(SANDBOX_NOW).toISOString(),
  );
}

Deno.test("SANDBOX_NOW is a fixed instant before the day this feature was written", () => {
  assert.equal(new Date(SANDBOX_NOW).toISOString(), "2026-06-30T00:00:00.000Z");
  assert.ok(SANDBOX_NOW < Date.UTC(2026, 10, 23));
});

Deno.test("every seeded sandbox date lies at or before SANDBOX_NOW", async (t) => {
  await using sandbox = await startSandbox();
  const sg = new Subgraph(sandbox.urls.subgraph, quiet);

  await t.step("the subgraph's _meta block is mined at SANDBOX_NOW", async () => {
    const orders = await sg.orders({ fields: ["createdAt"] });
    assert.equal(subgraphInfo(orders)?.meta?.blockTime?.getTime(), SANDBOX_NOW);
    assertNotAfterNow("orders", times(orders, "createdAt"));
    // The orders fill the year before now, not a year from some other day.
    assert.ok(Math.min(...times(orders, "createdAt")) >= SANDBOX_NOW - 366 * DAY_MS);
  });

  await t.step("NFT updates and tokens", async () => {
    assertNotAfterNow("NFT updates", times(await sg.nftUpdates(), "timestamp"));
    assertNotAfterNow("tokens", times(await sg.tokens(), "createdAt"));
  });

  await t.step("DDO created, updated and indexed dates", async () => {
    const node = new OceanNode(sandbox.urls.ocean, quiet);
    const assets = await node.searchAssets({}, { includeUnlisted: true });
    assertNotAfterNow("DDOs", times(assets, "created", "updated", "indexedAt"));
  });

  await t.step("archive harvests and ResourceSync", async () => {
    const archive = new Archive(sandbox.urls.archive, {
      account: "shinano",
      db: "letters",
      ...quiet,
    });
    assertNotAfterNow(
      "OAI-PMH datestamps",
      times(await archive.harvest({ metadataPrefix: "oai_dc" }), "datestamp"),
    );
    assertNotAfterNow("ResourceSync lastmod", times(await archive.resourceList(), "lastmod"));
  });
});

Deno.test("the last 90 days of sandbox orders are the 90 days before SANDBOX_NOW", async () => {
  await using sandbox = await startSandbox();
  const sg = new Subgraph(sandbox.urls.subgraph, quiet);
  const since = new Date(SANDBOX_NOW - 90 * DAY_MS);
  const all = times(await sg.orders({ fields: ["createdAt"] }), "createdAt");
  const recent = times(await sg.orders({ since, fields: ["createdAt"] }), "createdAt");
  assert.ok(recent.length > 0, "no order in the last 90 days");
  assert.equal(recent.length, all.filter((at) => at >= since.getTime()).length);
  assert.ok(recent.every((at) => at >= since.getTime() && at <= SANDBOX_NOW));
  // A quarter of a year of a year's orders: the window is neither empty nor everything.
  assert.ok(recent.length < all.length / 2, `${recent.length} of ${all.length} orders`);
});
