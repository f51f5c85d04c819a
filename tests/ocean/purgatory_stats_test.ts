/**
 * Flagged assets: purgatory and stats are columns of the assets table, in
 * every DDO form, and `purgatory: false` leaves flagged assets out. The
 * compute service id is a column, so a compute job needs no hand lookup.
 */

import assert from "node:assert/strict";
import { assetsTable, OceanNode } from "../../lib/ocean/mod.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

const FIXTURES = "../fixtures/external/ddo";

function read(path: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(new URL(`${FIXTURES}/${path}`, import.meta.url)));
}

Deno.test("assetsTable: purgatory, orders and stats in the 4.x array form and the object form", () => {
  // Aquarius' form: indexedMetadata.purgatory {state, reason}, stats an array of entries.
  const aquarius = read("market/datasetAquarius.json") as unknown as Ddo;
  // The ocean-node example: purgatory and stats (one object) at the top level.
  const nodeExample = read("ocean-node/ddo.json").DDOExample as Ddo;
  const flagged = structuredClone(aquarius);
  flagged.indexedMetadata!.purgatory = { state: true, reason: "copyright claim" };
  const table = assetsTable([aquarius, nodeExample, flagged]);
  assert.deepEqual(table.array("purgatory"), [false, false, true]);
  assert.deepEqual(table.array("purgatoryReason"), [null, null, "copyright claim"]);
  assert.deepEqual(Array.from(table.array("orders")), [22, 36, 22]);
  const stats = table.get("stats", 1) as Record<string, unknown>[];
  assert.equal(stats.length, 1);
  assert.equal(stats[0].allocated, 5211144);
  const computeIds = table.array("computeServiceId") as (string | null)[];
  const services = (aquarius as { services: { id: string; type: string }[] }).services;
  assert.equal(computeIds[0], services.find((s) => s.type === "compute")?.id ?? null);
});

Deno.test("searchAssets({ purgatory: false }) leaves out flagged assets; true keeps only them", async () => {
  const sandbox = startOceanSandbox();
  try {
    const node = new OceanNode(sandbox.url, { progress: false });
    const all = await node.searchAssets();
    const flaggedIds = sandbox.ddos
      .filter((d) =>
        d.indexedMetadata?.purgatory?.state === true && d.indexedMetadata.nft?.state !== 5
      )
      .map((d) => d.id);
    assert.ok(flaggedIds.length > 0, "the seed flags some assets");
    assert.deepEqual(
      new Set(all.filter((d: { purgatory: boolean }) => d.purgatory).array("did")),
      new Set(flaggedIds),
    );
    const clean = await node.searchAssets({ purgatory: false });
    assert.equal(clean.numRows(), all.numRows() - flaggedIds.length);
    assert.ok(!clean.array("purgatory").includes(true));
    const only = await node.searchAssets({ purgatory: true });
    assert.deepEqual(new Set(only.array("did")), new Set(flaggedIds));
    // The compute service id is the one a compute job is started with.
    const compute = all.filter((d: { computeAllowed: boolean }) => d.computeAllowed).object(0) as {
      did: string;
      computeServiceId: string;
    };
    const ddo = sandbox.ddos.find((d) => d.id === compute.did)!;
    assert.equal(
      compute.computeServiceId,
      ddo.services.find((s) => s.type === "compute")!.id,
    );
    await assert.rejects(
      node.searchAssets({ purgatory: "no" as unknown as boolean }),
      /Invalid purgatory filter: no/,
    );
  } finally {
    await sandbox.close();
  }
});
