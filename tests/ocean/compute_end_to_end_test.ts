/**
 * The whole free compute-to-data path through the public client against one
 * sandbox node: the catalogue, the environments, the nonce, the job, the
 * results and the file information all come from the same node and agree.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { OceanNode, signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import {
  SANDBOX_WALLET_ADDRESS,
  SANDBOX_WALLET_KEY,
  startOceanSandbox,
} from "../../lib/sandbox/ocean/mod.ts";
import { expectedStats } from "../ocean_compute/_setup.ts";
import { provenance } from "../../lib/table/provenance.ts";
import { assertSentOnlyListed } from "./_sent_fields.ts";
import { fullJobId } from "../../lib/ocean/compute/_jobs_list.ts";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

Deno.test("OceanNode runs a free job on the sandbox node end to end, over the node's own data", async () => {
  const sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    assert.equal(signer.address, SANDBOX_WALLET_ADDRESS);
    const { dataset, algorithm, environment } = sandbox.computeExample();

    // The example is in the catalogue: a dataset whose compute service admits the algorithm.
    const ddo = await node.ddo(dataset.documentId);
    const service = ddo.services.find((s) => s.id === dataset.serviceId)!;
    assert.equal(service.type, "compute");
    const trusted = (service.compute?.publisherTrustedAlgorithms ?? [])
      .map((entry) => (entry as { did?: string }).did);
    assert.ok(trusted.includes(algorithm.documentId) || service.compute?.allowRawAlgorithm);
    assert.equal((await node.ddo(algorithm.documentId)).metadata.type, "algorithm");

    // One environment list, with the trial limits of spec section 8 and the wallet allowlisted.
    const [env, ...others] = await node.computeEnvironments(11155111);
    assert.equal(others.length, 0);
    assert.equal(env.id, environment);
    assert.equal(env.fees, null);
    assert.deepEqual(
      [env.free?.minJobDuration, env.free?.maxJobDuration, env.free?.maxJobs],
      [10, 600, 3],
    );
    assert.ok(env.free?.access?.addresses?.includes(signer.address));
    assert.equal(env.runningJobs, 0);

    // One nonce store: the stored timestamp nonce is what GET nonce reports, and the start raises it.
    const before = await node.nonce(signer.address);
    assert.equal(before, sandbox.nonces.get(signer.address));
    assert.ok(Number(before) > 1e12, "the sandbox wallet starts with a timestamp nonce");

    const [job] = await node.startFreeCompute({
      signer,
      environment,
      algorithm,
      datasets: [dataset],
      resources: [{ id: "cpu", amount: 1 }, { id: "ram", amount: 1 }],
      maxJobDuration: 60,
    });
    assert.equal(job.owner, signer.address);
    const after = await node.nonce(signer.address);
    assert.ok(BigInt(after) > BigInt(before), `nonce raised from ${before} to ${after}`);
    const [busy] = await node.computeEnvironments(11155111);
    assert.equal(busy.runningJobs, 1, "the environments and the job engine agree");

    const done = await node.waitForJob(signer.address, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    assert.ok(done.status === 70 || done.status === 71);

    const table = await node.jobs(signer.address, { jobId: job.jobId });
    assert.equal(table.numRows(), 1);
    const row = table.object(0) as Record<string, unknown>;
    // The start answers `<cluster hash>-<jobId>` (ocean-node's engine; the spec's short id on odd
    // seeds), the list the short id.
    assert.equal(row.fullJobId, fullJobId(job));
    assert.ok(fullJobId(job).endsWith(`-${row.jobId}`));
    assert.equal(row.isFinished, true);
    assert.equal(row.isFailed, false);
    assert.equal(row.did, dataset.documentId);
    assert.equal(row.environment, environment);
    assert.equal(row.resultCount, done.results?.length);
    assert.ok(row.dateFinished instanceof Date);

    const saved = await node.downloadResults(done, { signer, dir });
    const types = saved.array("type") as string[];
    assert.deepEqual(
      [...types].sort(),
      ["algorithmLog", "configurationLog", "imageLog", "output", "publishLog"],
    );
    // The saved files say where they came from, with no key or signature of the signed requests.
    const from = provenance(saved)!;
    assert.equal(from.operation, "OceanNode.downloadResults");
    assert.deepEqual(from.params, { jobId: done.jobId, dir });
    assert.deepEqual(from.cacheKeys, []);
    const recorded = JSON.stringify(from);
    assert.ok(!recorded.toLowerCase().includes(SANDBOX_WALLET_KEY.slice(2).toLowerCase()));
    assert.doesNotMatch(recorded, /0x[0-9a-fA-F]{130}|signature|Bearer/i);

    // The files fileInfo describes are the bytes the job read: same sizes and SHA-256.
    const info = await node.fileInfo({ did: dataset.documentId, serviceId: dataset.serviceId });
    assert.ok(info.numRows() >= 1);
    const served = sandbox.files(dataset.documentId, dataset.serviceId);
    assert.equal(served.length, info.numRows());
    const configuration = await Deno.readTextFile(
      saved.get("path", types.indexOf("configurationLog")) as string,
    );
    for (let i = 0; i < info.numRows(); i++) {
      const checksum = info.get("checksum", i) as string;
      const length = info.get("contentLength", i) as number;
      assert.equal(sha256(served[i].bytes), checksum);
      assert.equal(served[i].bytes.byteLength, length);
      assert.match(
        configuration,
        new RegExp(`/data/inputs/${dataset.documentId}/\\S+ sha256:${checksum} ${length} bytes`),
      );
    }

    // The output holds the statistics of exactly those bytes.
    const output = JSON.parse(
      await Deno.readTextFile(saved.get("path", types.indexOf("output")) as string),
    );
    const parts = served.map((file) => new TextDecoder().decode(file.bytes));
    for (const column of ["value", "temperature"]) {
      const expected = expectedStats(parts, column);
      const got = output[dataset.documentId].columns[column];
      assert.equal(got.count, expected.count);
      assert.ok(Math.abs(got.mean - expected.mean) < 1e-9);
      assert.equal(got.min, expected.min);
      assert.equal(got.max, expected.max);
    }
    assert.equal(output[dataset.documentId].rows, dataRows(parts));

    const log = await node.resultText(done, types.indexOf("algorithmLog"), { signer });
    assert.match(log, new RegExp(`${dataset.documentId}: ${dataRows(parts)} rows`));
    assert.equal(join(dir, "summary.json"), saved.get("path", types.indexOf("output")));
    assertSentOnlyListed(sandbox);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Data rows of the CSV parts. */
function dataRows(parts: string[]): number {
  return parts.reduce((n, part) => n + part.trim().split("\n").length - 1, 0);
}

Deno.test("OceanNode downloads an ordered file that matches the node's fileInfo", async () => {
  const sandbox = startOceanSandbox({ count: 60, compute: { stepMs: 20 } });
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const ddo = sandbox.ddos.find((d) =>
      d.metadata.type === "dataset" && (d.indexedMetadata?.nft?.state ?? 0) <= 1 &&
      d.services.some((s) => s.type === "access")
    )!;
    const service = ddo.services.find((s) => s.type === "access")!;
    const fee = await node.initialize({
      did: ddo.id,
      serviceId: service.id,
      consumer: signer.address,
    });
    assert.equal(fee.datatoken, service.datatokenAddress);
    const txId = `0x${"cd".repeat(32)}`;
    sandbox.compute!.orders.push({
      txId,
      did: ddo.id,
      serviceId: service.id,
      consumer: signer.address,
    });
    const info = await node.fileInfo({ did: ddo.id, serviceId: service.id });
    for (let fileIndex = 0; fileIndex < info.numRows(); fileIndex++) {
      const file = await node.download({
        did: ddo.id,
        serviceId: service.id,
        txId,
        signer,
        dir,
        fileIndex,
        verify: true,
      });
      assert.equal(file.sha256, info.get("checksum", fileIndex));
      assert.equal(file.bytes, info.get("contentLength", fileIndex));
      assert.equal(file.path, join(dir, info.get("name", fileIndex) as string));
    }
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a catalogue-only node (compute: false) still serves environments and nonces, not jobs", async () => {
  const sandbox = startOceanSandbox({ count: 5, compute: false, freeAllowlist: [] });
  try {
    assert.equal(sandbox.compute, undefined);
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const [env] = await node.computeEnvironments(11155111);
    assert.deepEqual(env.free?.access?.addresses, []);
    assert.ok(Number(await node.nonce(SANDBOX_WALLET_ADDRESS)) > 1e12);
    sandbox.setNonce(SANDBOX_WALLET_ADDRESS, "42");
    assert.equal(await node.nonce(SANDBOX_WALLET_ADDRESS), "42");
    const response = await fetch(
      `${sandbox.url}/api/services/compute?consumerAddress=${SANDBOX_WALLET_ADDRESS}`,
    );
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await sandbox.close();
  }
});
