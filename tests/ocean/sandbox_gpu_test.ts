/**
 * The sandbox node names its GPU as real operators do, varied by seed: none
 * (seed 0), `myGPU` of type gpu listed in the free tier by id only (seed 1),
 * or `gpu` as the spec names it (seed 2). tidepool reads each, and a free job
 * asked for `{ id: "gpu" }` runs on the node's own id.
 */

import assert from "node:assert/strict";
import { OceanNode } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { startFreeCompute, waitForJob } from "../../lib/ocean/compute/mod.ts";
import { computePair, signer } from "../ocean_compute/_setup.ts";

type Row = Record<string, unknown>;

for (const [shapesSeed, gpuId] of [[0, undefined], [1, "myGPU"], [2, "gpu"]] as const) {
  Deno.test(`sandbox seed ${shapesSeed}: its GPU (${gpuId ?? "none"}) is read and given`, async () => {
    const sandbox = startOceanSandbox({ count: 60, shapesSeed, compute: { stepMs: 15 } });
    try {
      const node = new OceanNode(sandbox.url, { progress: false, retry: false });
      const [env] = await node.computeEnvironments(11155111);
      const [row] = (await node.environmentsTable(11155111)).objects() as Row[];
      const listed = env.free?.resources.find((r) => r.id === gpuId);
      assert.equal(row.gpuMax, gpuId ? 1 : null);
      assert.equal(row.gpuTotal, gpuId ? 1 : null);
      assert.equal(typeof row.gpuDescription, gpuId ? "string" : "object");
      if (gpuId) assert.equal(listed?.type, undefined, "the free tier lists the GPU by id only");

      const pair = computePair(sandbox.ddos);
      const algo = sandbox.ddos.find((ddo) => ddo.id === pair.algorithmDid)!;
      const request = {
        signer,
        environment: env.id,
        algorithm: { documentId: algo.id, serviceId: algo.services[0].id },
        datasets: [pair.dataset],
        resources: [{ id: "gpu", amount: 1 }],
        maxJobDuration: 60,
      };
      const started = await startFreeCompute(node.http, request, [env]).catch((e) => e);
      if (!gpuId) {
        assert.match(String(started), /resource gpu is not offered for free jobs/);
        return;
      }
      const done = await waitForJob(node.http, signer, started[0].jobId, {
        pollMs: 20,
        timeoutMs: 10_000,
      });
      // The node granted its own resource: the request was sent under its id.
      const granted = (done.resources ?? []) as { id: string; amount: number }[];
      assert.deepEqual(granted.find((r) => r.id === gpuId), { id: gpuId, amount: 1 });
    } finally {
      await sandbox.close();
    }
  });
}
