import assert from "node:assert/strict";
import { OceanNode } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { BEYOND_HOLD_MS, type HoldEnd, holdRequest, settled } from "../_events.ts";

const ddo = (n: number) => ({
  id: `did:op:${String(n).repeat(64)}`,
  version: "4.1.0",
  chainId: 11155111,
  nftAddress: `0x${"1".repeat(40)}`,
  metadata: { type: "dataset", name: `dataset ${n}` },
  services: [],
  indexedMetadata: { nft: { state: 0 } },
});

/** The page a search body asks for: Elasticsearch-style `from`/`size` (the default form). */
function pageOf(body: { from: number; size: number }): number {
  return Math.floor(body.from / body.size) + 1;
}

Deno.test("pages that overlap are not counted twice: the shortfall is said", async () => {
  // found 4, but page 2 repeats a document of page 1 (an unstable sort, or
  // indexing while paging), and page 3 is empty: document 4 never arrives.
  const pages: Record<number, number[]> = { 1: [1, 2], 2: [2, 3] };
  const server = serveLocal(async (request) => {
    const page = pageOf(await request.json());
    const ids = pages[page] ?? [];
    return Response.json([{
      found: 4,
      out_of: 4,
      page,
      request_params: { collection_name: "sandbox_ddo_v4.1.0", per_page: 2 },
      hits: ids.map((n) => ({ document: ddo(n) })),
    }]);
  });
  try {
    const warnings: string[] = [];
    const node = new OceanNode(server.url, { progress: false, warn: (m) => warnings.push(m) });
    const table = await node.searchAssets({}, { pageSize: 2 });
    assert.equal(table.numRows(), 3);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /received 3 of the 4 documents/);
    assert.match(warnings[0], /1 came again on later pages/);
  } finally {
    await server.close();
  }
});

Deno.test("pages requested ahead are cancelled when the walk stops early", async () => {
  // found 1,000 in pages of 2, but page 2 comes back empty: the walk stops there.
  const signals = new Map<number, AbortSignal>();
  const ends: HoldEnd[] = [];
  const fakeFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    // The node's version, asked for the table's provenance.
    if (request.method === "GET") return Response.json({ version: "2.1.0" });
    const page = pageOf(await request.json());
    signals.set(page, init!.signal!);
    // Pages past the second are held until cancelled: still in flight when the walk stops.
    if (page > 2) await holdRequest(init!.signal, ends);
    const ids = page === 1 ? [1, 2] : [];
    return Response.json([{
      found: 1000,
      out_of: 1000,
      page,
      request_params: { collection_name: "sandbox_ddo_v4.1.0", per_page: 2 },
      hits: ids.map((n) => ({ document: ddo(n) })),
    }]);
  };
  const node = new OceanNode("http://127.0.0.1:9", {
    progress: false,
    warn: () => {},
    fetch: fakeFetch,
    minIntervalMs: 0,
    concurrency: 4,
    timeoutMs: BEYOND_HOLD_MS,
  });
  const table = await node.searchAssets({}, { pageSize: 2 });
  assert.equal(table.numRows(), 2);
  assert.ok(signals.size > 2, "pages were requested ahead");
  for (const [page, signal] of signals) {
    if (page > 2) assert.equal(signal.aborted, true, `page ${page} cancelled`);
  }
  await settled();
  const ahead = [...signals.keys()].filter((page) => page > 2);
  assert.deepEqual(ends, ahead.map(() => "aborted"), "ended by the abort, not by waiting");
});
