/**
 * The sandbox node reads a job id as ocean-node does (split at the first
 * `-` into cluster hash and engine id), in one place for status, result,
 * stop and logs; each route keeps ocean-node's answer to an id it cannot
 * place.
 */

import assert from "node:assert/strict";
import { clusterHash, engineJobId } from "../../lib/sandbox/ocean/compute/_job_ids.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { sandboxOnClock, signer, startJob } from "../ocean_compute/_job_clock.ts";

const node = { environments: [{ id: "0xab12-9f00" }, { id: "0xcd34-1e1e-2f2f" }] };

Deno.test("engineJobId: a known cluster's id gives the engine id after the first dash", () => {
  assert.equal(clusterHash("0xcd34-1e1e-2f2f"), "0xcd34");
  assert.equal(clusterHash("nodash"), "nodash");
  const cases: [string, string | undefined][] = [
    ["0xab12-7c3e", "7c3e"], // long id
    ["0xcd34-7c3e", "7c3e"], // the cluster of an environment id with dashes of its own
    ["0xab12-7c-3e-", "7c-3e-"], // an engine id with dashes: only the first one splits
    ["0xab12-", ""], // a known cluster and an empty engine id: no job, but the cluster is known
    ["7c3e", undefined], // short id: no cluster
    ["-7c3e", undefined], // empty cluster
    ["", undefined], // empty
    ["0xffff-7c3e", undefined], // unknown cluster
    ["0xAB12-7c3e", undefined], // a cluster hash is compared exactly, as ocean-node does
    ["9f00-7c3e", undefined], // the environment's own hash is not its cluster
  ];
  for (const [jobId, expected] of cases) {
    assert.equal(engineJobId(node, jobId), expected, JSON.stringify(jobId));
  }
  assert.equal(engineJobId({ environments: [] }, "0xab12-7c3e"), undefined);
});

Deno.test("result, stop and logs answer ocean-node's 500 for an id of no known cluster, their own for an unknown job", async () => {
  const { sandbox, node: client } = sandboxOnClock();
  await using _ = sandbox;
  const job = await startJob(client, sandbox);
  const cluster = clusterHash(job.environment);
  const base = `${sandbox.url}/api/services`;
  let nonce = BigInt(await client.nonce(signer.address));
  const routes = [
    { command: "getComputeResult", path: "computeResult", method: "GET", extra: { index: "0" } },
    { command: "stopCompute", path: "compute", method: "PUT", extra: {} },
    {
      command: "getComputeStreamableLogs",
      path: "computeStreamableLogs",
      method: "GET",
      extra: {},
    },
  ] as const;
  const invalid = [500, "Invalid C2D Environment"];
  const unknownJob: Record<string, unknown[]> = {
    getComputeResult: [404, "Job not found"],
    stopCompute: [200, "[]"],
    getComputeStreamableLogs: [404, "Job not found or not running"],
  };
  const ids: [string, unknown[] | undefined][] = [
    [job.jobId, invalid], // short
    [`ffff-${job.jobId}`, invalid], // unknown cluster
    [`-${job.jobId}`, invalid], // empty cluster
    [`${cluster}-${job.jobId}-x`, undefined], // a known cluster, an engine id with a dash
    [`${cluster}-`, undefined], // a known cluster, an empty engine id
  ];
  for (const { command, path, method, extra } of routes) {
    for (const [jobId, expected] of ids) {
      nonce += 1n;
      const fields = await signRequest(signer, command, { nonce: String(nonce) });
      const query = new URLSearchParams({ ...fields, ...extra, jobId });
      const response = await fetch(`${base}/${path}?${query}`, { method });
      assert.deepEqual(
        [response.status, await response.text()],
        expected ?? unknownJob[command],
        `${command} ${jobId}`,
      );
    }
  }
  // None of these reached the job: it still runs.
  assert.equal((await client.job(signer.address, job.jobId)).status < 70, true);
});
