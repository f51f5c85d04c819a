/**
 * Compute environments as real nodes sent them (tests/fixtures/external/node,
 * see SOURCES.md): two GPU nodes naming their GPU `myGPU` with `type: "gpu"`
 * and listing it in the free tier by that id, and a barge node giving ram and
 * disk in bytes where the specification says GiB. Served at the spec's path
 * on loopback; the start request is read where the node receives it.
 */

import assert from "node:assert/strict";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { startFreeCompute } from "../../lib/ocean/compute/start_free_compute.ts";

const DIR = new URL("../fixtures/external/node/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, DIR));
type Row = Record<string, unknown>;

/** A node answering computeEnvironments with a recording; it keeps what a start sends. */
function node(fixture: string) {
  const starts: Record<string, unknown>[] = [];
  const server = serveLocal(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/api/services/computeEnvironments") {
      return new Response(read(fixture), { headers: { "content-type": "application/json" } });
    }
    if (path === "/api/services/nonce") return Response.json({ nonce: 0 });
    if (path === "/api/services/freeCompute") {
      starts.push(await request.json());
      return new Response(JSON.stringify("stopped by the test"), { status: 400 });
    }
    return new Response("not found", { status: 404 });
  }, { maxRequests: 50 });
  return { server, starts };
}

const DID = `did:op:${"ab".repeat(32)}`;
const signer = signerFromPrivateKey(`0x${"3".repeat(63)}4`);

/** The start itself, after the algorithm policy (which reads DDOs this node does not have). */
async function start(
  client: OceanNode,
  environment: string,
  resources: { id: string; amount: number }[],
) {
  return await startFreeCompute(client.http, {
    signer,
    environment,
    algorithm: { documentId: DID, serviceId: "s1" },
    datasets: [{ documentId: DID.replace("ab", "cd"), serviceId: "s2" }],
    resources,
  }, await client.computeEnvironments(1));
}

for (
  const [fixture, description] of [
    ["ocean-node-docs/computeEnvironments-gpu-nvidia.json", "NVIDIA GeForce GTX 1060 3GB"],
    ["ocean-node-docs/computeEnvironments-gpu-amd.json", "AMD Radeon RX 9070 XT"],
  ]
) {
  Deno.test(`a GPU named myGPU (${description}) is the environment's gpu, asked for as gpu`, async () => {
    const { server, starts } = node(fixture);
    try {
      const client = new OceanNode(server.url, { progress: false, retry: false });
      const [row] = (await client.environmentsTable(1)).objects() as Row[];
      const recorded = JSON.parse(read(fixture))[0];
      const gpu = recorded.resources.find((r: Row) => r.type === "gpu");
      assert.equal(gpu.id, "myGPU");
      assert.equal(row.gpuTotal, gpu.total);
      assert.equal(row.gpuMax, 1);
      assert.equal(row.gpuInUse, 0);
      assert.equal(row.gpuDescription, description);
      assert.equal(row.ramMax, 1);
      assert.equal(row.cpuMax, 1);

      const error = await start(client, recorded.id, [{ id: "gpu", amount: 1 }, {
        id: "cpu",
        amount: 1,
      }]).catch((e) => e);
      assert.match(String(error), /stopped by the test/);
      // The node received its own id for the GPU.
      assert.deepEqual(starts.at(-1)?.resources, [
        { id: "myGPU", amount: 1 },
        { id: "cpu", amount: 1 },
      ]);
      const tooMany = await start(client, recorded.id, [{ id: "gpu", amount: 2 }]).catch((e) => e);
      assert.match(tooMany.message, /gpu 2 exceeds the free maximum of 1/);
      assert.equal(starts.length, 1);
    } finally {
      await server.close();
    }
  });
}

Deno.test("ram and disk in bytes (barge, chain 8996) are read as GiB, and checked as GiB", async () => {
  const { server, starts } = node("ocean-docs/computeEnvironments-barge-8996.json");
  try {
    const client = new OceanNode(server.url, { progress: false, retry: false });
    const [row] = (await client.environmentsTable(8996)).objects() as Row[];
    const GIB = 2 ** 30;
    assert.equal(row.ramTotal, 16766418944 / GIB);
    assert.equal(row.ramMax, 1e9 / GIB);
    assert.equal(row.ramMin, 1e9 / GIB);
    assert.equal(row.diskMax, 1e9 / GIB);
    assert.equal(row.cpuMax, 1);
    assert.equal(row.gpuTotal, null);
    assert.equal(row.minJobDuration, null);
    assert.equal(row.maxJobs, 3);

    const id = JSON.parse(read("ocean-docs/computeEnvironments-barge-8996.json"))[0].id;
    const error = await start(client, id, [{ id: "ram", amount: 2 }]).catch((e) => e);
    assert.match(error.message, /ram 2 exceeds the free maximum of 0\.93 GiB/);
    assert.equal(starts.length, 0, "refused before anything was sent");
  } finally {
    await server.close();
  }
});
