/**
 * searchAssets speaks the query form the spec documents: Elasticsearch-style
 * term/terms in `bool.filter`, "not unlisted" as a term in `bool.must_not`.
 * The Typesense `filter_by` syntax is not in the spec, so a node whose engine
 * refuses it must not break the default search (docs/ASSUMPTIONS.md).
 */

import assert from "node:assert/strict";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

interface Seeded {
  metadata?: { type?: string };
  indexedMetadata?: { nft?: { state?: number } };
}

function documents(ddos: readonly unknown[]): Seeded[] {
  return ddos as Seeded[];
}

Deno.test("searchAssets: the default body is the spec's Elasticsearch form; a node refusing filter_by still answers", async () => {
  const sandbox = startOceanSandbox({ count: 60 });
  const bodies: Record<string, unknown>[] = [];
  // A node whose engine rejects every filter_by expression: it answers [],
  // as the spec says a rejected filter does.
  const strictEngine: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = await request.clone().json();
    bodies.push(body);
    if ("filter_by" in body) return Response.json([]);
    return await fetch(request);
  };
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false, fetch: strictEngine });
    const datasets = await node.searchAssets({ type: "dataset", nftState: [0, 4] }, {
      pageSize: 7,
      sortBy: "indexedMetadata.event.block:desc",
    });
    const expected = documents(sandbox.ddos).filter((d) =>
      d.metadata?.type === "dataset" && [0, 4].includes(Number(d.indexedMetadata?.nft?.state))
    );
    assert.ok(expected.length > 7, "more than one page");
    assert.equal(datasets.numRows(), expected.length);
    const blocks = datasets.array("indexedBlock") as number[];
    assert.deepEqual(blocks, [...blocks].sort((a, b) => b - a));

    const listed = await node.searchAssets({});
    const unlisted = documents(sandbox.ddos).filter((d) => d.indexedMetadata?.nft?.state === 5);
    assert.ok(unlisted.length > 0, "the seed has unlisted assets");
    assert.equal(listed.numRows(), sandbox.ddos.length - unlisted.length);

    const last = bodies.at(-1)!;
    assert.deepEqual(last.query, {
      bool: { filter: [], must_not: [{ term: { "indexedMetadata.nft.state": 5 } }] },
    });
    assert.ok(bodies.every((b) => !("filter_by" in b)), "no Typesense body was sent");
  } finally {
    await sandbox.close();
  }
});
