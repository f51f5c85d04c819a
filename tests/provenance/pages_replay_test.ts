/**
 * A page-by-page read replayed from the cache, with the service stopped and
 * no network, gives every page the provenance it had when recorded: the
 * same cache keys, times and "as of", page by page.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import type { CacheOptions } from "../../lib/http/mod.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { type Provenance, provenance, Subgraph } from "../../mod.ts";

const offline: typeof fetch = (input) =>
  Promise.reject(new Error(`network used in replay mode: ${input}`));

async function harvestPages(endpoint: string, cache: CacheOptions): Promise<Provenance[]> {
  const oai = new OaiPmh(endpoint, {
    progress: false,
    retry: false,
    minIntervalMs: 0,
    cache,
    fetch: cache.mode === "replay" ? offline : undefined,
  });
  const records: Provenance[] = [];
  for await (const page of oai.harvestRecords()) records.push(page.provenance!);
  return records;
}

async function orderPages(endpoint: string, cache: CacheOptions): Promise<Provenance[]> {
  const sg = new Subgraph(endpoint, {
    progress: false,
    cache,
    fetch: cache.mode === "replay" ? offline : undefined,
  });
  const records: Provenance[] = [];
  for await (const page of sg.orderPages({ orderBy: "id" })) records.push(provenance(page)!);
  return records;
}

Deno.test("harvestRecords and orderPages replay offline to the recorded page provenance", async () => {
  const dir = await Deno.makeTempDir();
  const record: CacheOptions = { dir, mode: "record" };
  const replay: CacheOptions = { dir, mode: "replay" };
  const oai = startOaiSandbox({ pageSize: 25 });
  const subgraph = serveSubgraph({ orders: 2_500 });
  const endpoint = `${oai.url}/acme/letters/api/oai`;
  try {
    let recorded: { harvest: Provenance[]; orders: Provenance[] };
    try {
      recorded = {
        harvest: await harvestPages(endpoint, record),
        orders: await orderPages(subgraph.endpoint, record),
      };
    } finally {
      await oai.close();
      await subgraph.close();
    }
    assert.ok(recorded.harvest.length > 2);
    assert.equal(recorded.orders.length, 3);
    for (const from of [...recorded.harvest, ...recorded.orders]) {
      assert.ok(from.cacheKeys.length >= 1);
    }
    assert.match(String(recorded.harvest[1].asOf.responseDate), /^\d{4}-/);
    assert.equal(typeof recorded.orders[2].asOf.block, "number");

    assert.deepEqual(await harvestPages(endpoint, replay), recorded.harvest);
    assert.deepEqual(await orderPages(subgraph.endpoint, replay), recorded.orders);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
