/**
 * The sandbox node answers as ocean-node's code does where the spec is
 * silent or disagrees (src/components/httpRoutes/ and src/components/core/
 * of oceanprotocol/ocean-node), a shapes seed gives the spec's forms, and
 * tidepool reads both. The ocean.js run is tests/sandbox/oceanjs_test.ts.
 */

import assert from "node:assert/strict";
import { OceanNode, signerFromPrivateKey, signRequest } from "../../lib/ocean/mod.ts";
import { SANDBOX_WALLET_KEY, startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { assertSentOnlyListed } from "../ocean/_sent_fields.ts";
import { withNode } from "../ocean/_helpers.ts";
import { clusterOf } from "../ocean_compute/_job_ids.ts";

const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);

Deno.test("GET / lists every route by name as ocean-node does; odd seeds leave the map out", async () => {
  await using sandbox = startOceanSandbox({ count: 5, shapesSeed: 0 });
  const info = await (await fetch(`${sandbox.url}/`)).json();
  const map = info.serviceEndpoints as Record<string, [string, string]>;
  // The names ocean.js looks up (ignoring case): each route answers, none is 404.
  for (
    const name of [
      "nonce",
      "fileinfo",
      "computeEnvironments",
      "initialize",
      "encrypt",
      "download",
      "freeCompute",
      "computeStatus",
      "computeResult",
      "generateAuthToken",
      "getDDOMetadata",
    ]
  ) {
    const key = Object.keys(map).find((k) => k.toLowerCase() === name.toLowerCase());
    assert.ok(key, `serviceEndpoints names ${name}`);
    const [method, path] = map[key];
    const concrete = path.replace(":did", sandbox.ddos[0].id).replace("/:force?", "");
    const response = await fetch(`${sandbox.url}${concrete}`, {
      method,
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    await response.body?.cancel();
    assert.notEqual(response.status, 404, `${name}: ${method} ${concrete}`);
  }
  assert.deepEqual(map.computeStatus, ["GET", "/api/services/compute"]);
  await using catalogue = startOceanSandbox({ count: 5, compute: false, shapesSeed: 0 });
  const few = (await (await fetch(`${catalogue.url}/`)).json()).serviceEndpoints;
  assert.equal(few.freeCompute, undefined, "only the routes the node serves");
  assert.deepEqual(few.nonce, ["GET", "/api/services/nonce"]);
  // The spec's node (an odd seed) lists none; tidepool reads both.
  for (const seed of [0, 1]) {
    await withNode({ count: 5, shapesSeed: seed }, async (node) => {
      const read = await node.info();
      assert.equal(read.version, "4.2.0");
      assert.equal(read.serviceEndpoints === undefined, seed === 1, `seed ${seed}`);
    });
  }
});

Deno.test("a free start answers <cluster hash>-<jobId>; status and results take it; odd seeds the short id", async () => {
  for (const seed of [0, 1, 2, 3]) {
    const dir = await Deno.makeTempDir();
    try {
      await withNode({ compute: { stepMs: 10 }, shapesSeed: seed }, async (node, sandbox) => {
        const { dataset, algorithm, environment } = sandbox.computeExample();
        const cluster = clusterOf(environment);
        const [job] = await node.startFreeCompute({
          signer,
          environment,
          algorithm,
          datasets: [dataset],
          maxJobDuration: 60,
        });
        const long = seed % 2 === 0;
        assert.equal(job.jobId.startsWith(`${cluster}-`), long, `seed ${seed}: ${job.jobId}`);
        // The node's status lookup splits the long id at its first `-`.
        const listed = await (await fetch(
          `${sandbox.url}/api/services/compute?consumerAddress=${signer.address}&jobId=${job.jobId}`,
        )).json();
        assert.equal(listed.length, 1, `seed ${seed}`);
        assert.ok(!listed[0].jobId.startsWith(`${cluster}-`), "the list gives the short id");
        // tidepool waits with either form and reads the results with the long one.
        const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 10 });
        const saved = await node.downloadResults(done, { signer, dir });
        assert.ok(saved.numRows() >= 4, `seed ${seed}`);
        // The long id of the start is what computeResult takes as given (ocean.js passes it on).
        const fields = await signRequest(signer, "getComputeResult", {
          nonce: String(BigInt(await node.nonce(signer.address)) + 1n),
        });
        const query = new URLSearchParams({
          jobId: long ? job.jobId : `${cluster}-${job.jobId}`,
          index: "0",
          ...fields,
        } as Record<string, string>);
        const result = await fetch(`${sandbox.url}/api/services/computeResult?${query}`);
        assert.equal(result.status, 200, await result.clone().text());
        await result.body?.cancel();
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("the job list reads a job id as ocean-node's status command; odd seeds as the spec", async () => {
  for (const seed of [0, 1]) {
    await withNode({ compute: { stepMs: 10 }, shapesSeed: seed }, async (node, sandbox) => {
      const { dataset, algorithm, environment } = sandbox.computeExample();
      const start = async () =>
        (await node.startFreeCompute({
          signer,
          environment,
          algorithm,
          datasets: [dataset],
          maxJobDuration: 60,
        }))[0].jobId;
      const first = await start();
      const second = await start();
      const list = async (query: Record<string, string>) => {
        const answer = await fetch(
          `${sandbox.url}/api/services/compute?${new URLSearchParams(query)}`,
        );
        const body = await answer.text();
        return { status: answer.status, jobs: answer.ok ? JSON.parse(body) as unknown[] : body };
      };
      const consumerAddress = signer.address;
      const short = (id: string) => id.slice(id.indexOf("-") + 1);
      if (seed === 0) {
        // The long id names its cluster's job alone, with or without the consumer.
        assert.equal((await list({ consumerAddress, jobId: first })).jobs.length, 1);
        assert.equal((await list({ jobId: second })).jobs.length, 1);
        // A short id names no cluster: every engine lists all the consumer's jobs.
        assert.equal((await list({ consumerAddress, jobId: short(first) })).jobs.length, 2);
        // A hash the node does not run, no id of any kind, or an address that is none: 500.
        for (
          const query of [
            { consumerAddress, jobId: `0xfeed-${short(first)}` },
            {},
            { consumerAddress: "0x1234" },
          ] as Record<string, string>[]
        ) {
          const answer = await list(query);
          assert.equal(answer.status, 500, JSON.stringify(query));
          assert.equal(answer.jobs, "Internal Server Error");
        }
      } else {
        assert.equal((await list({ consumerAddress, jobId: first })).jobs.length, 1);
        assert.equal((await list({ jobId: first })).status, 400);
      }
      // tidepool's wait finds each job by its id on either node.
      for (const id of [first, second]) {
        const done = await node.waitForJob(signer.address, id, { pollMs: 10 });
        assert.equal(short(String(done.jobId)), short(id), `seed ${seed}`);
      }
    });
  }
});

Deno.test("fields the node does not know are ignored and recorded, not refused", async () => {
  await using sandbox = startOceanSandbox({ count: 60, compute: { stepMs: 10 } });
  const { dataset, algorithm, environment } = sandbox.computeExample();
  const nonce = String(BigInt(sandbox.nonces.get(signer.address)) + 1n);
  const fields = await signRequest(signer, "freeStartCompute", { nonce });
  // ocean.js sends its legacy `dataset` beside `datasets`.
  const started = await fetch(`${sandbox.url}/api/services/freeCompute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...fields,
      environment,
      algorithm,
      datasets: [dataset],
      dataset,
    }),
  });
  assert.equal(started.status, 200, await started.clone().text());
  await started.body?.cancel();
  const ddo = orderable(sandbox.ddos);
  const initialized = await fetch(
    `${sandbox.url}/api/services/initialize?${new URLSearchParams({
      documentId: ddo.id,
      serviceId: ddo.services.find((s) => s.type === "access")!.id,
      consumerAddress: signer.address,
      environment: "download",
      policyServer: "{}",
    })}`,
  );
  assert.equal(initialized.status, 200, await initialized.clone().text());
  await initialized.body?.cancel();
  assert.deepEqual(sandbox.unlisted, [
    { method: "POST", path: "/api/services/freeCompute", names: ["dataset"] },
    { method: "GET", path: "/api/services/initialize", names: ["environment", "policyServer"] },
  ]);
  assert.throws(() => assertSentOnlyListed(sandbox), /freeCompute: dataset; .*environment/);
});

/** A test helper with a deliberate misspelling (`userAdress`): the tidepool tests must catch it. */
async function misspeltNonce(node: OceanNode, address: string): Promise<void> {
  await node.http.request({ path: "/api/services/nonce", query: { userAdress: address } })
    .catch(() => undefined);
}

Deno.test("a misspelt field in a client is caught by the sent-fields check of withNode", async () => {
  await assert.rejects(
    withNode({ count: 5, compute: false }, async (node) => {
      await misspeltNonce(node, signer.address);
    }),
    /GET \/api\/services\/nonce: userAdress/,
  );
});

Deno.test("indexedMetadata.event.txid as ocean-node's indexer writes it; odd seeds the spec's tx", async () => {
  for (const seed of [0, 1]) {
    await withNode({ count: 5, shapesSeed: seed }, async (node, sandbox) => {
      const did = sandbox.ddos[1].id;
      const event = (await node.ddo(did)).indexedMetadata?.event ?? {};
      const tx = seed === 0 ? event.txid : event.tx;
      assert.match(String(tx), /^0x[0-9a-f]{64}$/, `seed ${seed}`);
      assert.equal(seed === 0 ? event.tx : event.txid, undefined, `seed ${seed}`);
      // tidepool finds the asset by its transaction in either form.
      const found = await node.waitForIndexed({ txId: String(tx) }, { pollMs: 10 });
      assert.equal(found.id, did);
    });
  }
});

Deno.test("initialize refuses what ocean-node refuses and names the stored nonce; tokens are JWTs", async () => {
  await using sandbox = startOceanSandbox({ count: 200, compute: { stepMs: 10 } });
  const initialize = (ddo: Ddo, serviceId: string) =>
    fetch(
      `${sandbox.url}/api/services/initialize?${new URLSearchParams({
        documentId: ddo.id,
        serviceId,
        consumerAddress: signer.address,
      })}`,
    );
  const access = (ddo: Ddo) => ddo.services.find((s) => s.type === "access");
  for (const state of [2, 3, 4, 5]) {
    const ddo = sandbox.ddos.find((d) => d.indexedMetadata?.nft?.state === state && access(d));
    assert.ok(ddo, `a seeded asset in state ${state}`);
    const refused = await initialize(ddo, access(ddo)!.id);
    assert.equal(refused.status, 500, `state ${state}`);
    assert.match(await refused.text(), /state is different than ACTIVE or UNLISTED/);
  }
  const compute = sandbox.ddos.find((d) =>
    d.indexedMetadata?.nft?.state === 0 && d.services.some((s) => s.type === "compute")
  )!;
  const refused = await initialize(compute, compute.services.find((s) => s.type === "compute")!.id);
  assert.equal(refused.status, 500);
  assert.equal(
    await refused.text(),
    "Use the initializeCompute endpoint to initialize compute jobs",
  );
  for (const state of [0, 1]) {
    const ddo = sandbox.ddos.find((d) => d.indexedMetadata?.nft?.state === state && access(d))!;
    const answer = await (await initialize(ddo, access(ddo)!.id)).json();
    assert.equal(answer.nonce, sandbox.nonces.get(signer.address), `state ${state}`);
    assert.equal(answer.datatoken, access(ddo)!.datatokenAddress);
  }

  // The metadata path serves the same DDO as the ddo path (aquarius.ts).
  const did = sandbox.ddos[0].id;
  const byMetadata = await (await fetch(`${sandbox.url}/api/aquarius/assets/metadata/${did}`))
    .json();
  assert.equal(byMetadata.id, did);
  assert.deepEqual(
    byMetadata,
    await (await fetch(`${sandbox.url}/api/aquarius/assets/ddo/${did}`)).json(),
  );

  // A bearer token is a JWT (HS256 over address, nonce, createdAt), as ocean-node's.
  const node = new OceanNode(sandbox.url, { progress: false, retry: false });
  const authToken = await node.createAuthToken({ signer });
  const token = authToken.header(sandbox.url).replace(/^Bearer /, "");
  const parts = token.split(".");
  assert.equal(parts.length, 3, token);
  const decode = (part: string) =>
    JSON.parse(new TextDecoder().decode(Uint8Array.from(
      atob(part.replaceAll("-", "+").replaceAll("_", "/")),
      (c) => c.charCodeAt(0),
    )));
  assert.deepEqual(decode(parts[0]), { alg: "HS256", typ: "JWT" });
  const payload = decode(parts[1]);
  assert.equal(payload.address, signer.address);
  assert.equal(typeof payload.createdAt, "number");
  // And it still stands for its address.
  const jobs = await fetch(
    `${sandbox.url}/api/services/compute?consumerAddress=${signer.address}&includeMetrics=true`,
    { headers: { authorization: authToken.header(sandbox.url) } },
  );
  assert.equal(jobs.status, 200);
  await jobs.body?.cancel();
  assertSentOnlyListed(sandbox);
});

/** A seeded asset in state 0 with an access service. */
function orderable(ddos: readonly Ddo[]): Ddo {
  return ddos.find((d) =>
    d.indexedMetadata?.nft?.state === 0 && d.services.some((s) => s.type === "access")
  )!;
}
