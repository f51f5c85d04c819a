/**
 * DDO 5.0.0 (ddo.js's verifiable credential, the asset under
 * `credentialSubject`) read for orders, downloads and compute: `ddo()` gives
 * its services, chain and NFT at the top level without losing a field of the
 * document (the real ddo.js example, tests/fixtures/external/ddo/docs), and a
 * sandbox node seeded with 5.0.0 DDOs sends that form and runs a free job.
 */

import assert from "node:assert/strict";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { assetAtTopLevel } from "../../lib/ocean/_ddo_forms.ts";
import { OceanNode, orderAsset, signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { SANDBOX_WALLET_KEY, startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

type Json = Record<string, unknown>;

const DIR = new URL("../fixtures/external/ddo/", import.meta.url);
const readJson = (file: string) => JSON.parse(Deno.readTextFileSync(new URL(file, DIR)));
const EXAMPLES = readJson("docs/instantiate-ddo.json") as Record<string, Json>;
const V5 = EXAMPLES.DDOExampleV5;
const SUBJECT = V5.credentialSubject as Json;
const [ACCESS] = SUBJECT.services as Json[];

Deno.test("ddo() of the real 5.0.0 example: its service found by id and type, every field kept", async () => {
  const sandbox = startOceanSandbox({
    ddos: [structuredClone(V5) as unknown as Ddo],
    compute: false,
  });
  try {
    // The node sends the document as recorded (a shapes seed may add fields): the asset
    // only under credentialSubject.
    const sent = await (await fetch(`${sandbox.url}/api/aquarius/assets/ddo/${V5.id}`)).json();
    for (const [key, value] of Object.entries(V5)) assert.deepEqual(sent[key], value, key);
    assert.ok(!("services" in sent));

    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const ddo = await node.ddo(V5.id as string);
    const service = ddo.services.find((s) => s.id === ACCESS.id && s.type === "access");
    assert.ok(service, "the access service by its id and type");
    assert.equal(service.datatokenAddress, "0xff4ae9869cafb5ff725f962f3bbc22fb303a8ad8");
    assert.equal(service.serviceEndpoint, "https://v4.provider.oceanprotocol.com");
    assert.equal(service.files, ACCESS.files);
    assert.equal(service.timeout, 86400);
    assert.deepEqual(service.compute, { allowRawAlgorithm: false, allowNetworkAccess: true });
    // Fields of a 5.0.0 service a 4.x one lacks stay on it.
    assert.deepEqual(service, ACCESS);
    assert.equal(ddo.chainId, 137);
    assert.equal(ddo.nftAddress, "0xBB1081DbF3227bbB233Db68f7117114baBb43656");
    assert.equal(ddo.datatokens?.[0].symbol, "BOOFIS-23");
    assert.equal(ddo.indexedMetadata?.nft?.owner, "0x0DB823218e337a6817e6D7740eb17635DEAdafAF");
    assert.equal(ddo.metadata.type, "dataset");
    assert.equal(
      ddo.metadata.description,
      "New asset published using ocean CLI tool with version 5.0.0",
    );
    assert.equal(ddo.metadata.license, "https://market.oceanprotocol.com/terms");
    assert.equal(ddo.metadata.copyrightHolder, "Your Copyright Holder");
    // Nothing the node sent is lost or changed: every top-level field, the whole subject.
    for (const [key, value] of Object.entries(V5)) assert.deepEqual(ddo[key], value, key);
    assert.equal(ddo.version, "5.0.0");
  } finally {
    await sandbox.close();
  }
});

Deno.test("assetAtTopLevel: 4.x and deprecated DDOs come back as they are", () => {
  const files = [
    "docs/instantiate-ddo.json",
    "ocean-node/ddo.json",
    "market/algorithmAquarius.json",
  ];
  const others = files.flatMap((file) => {
    const json = readJson(file);
    return ("id" in json ? [json] : Object.values(json)) as Ddo[];
  }).filter((ddo) => ddo.version !== "5.0.0");
  assert.ok(others.length >= 8);
  for (const ddo of others) assert.equal(assetAtTopLevel(ddo), ddo, String(ddo.id));
  // A 5.0.0 top level is never overwritten by its subject (the DID is the top level's).
  const renamed = { ...V5, id: "did:ope:" + "a".repeat(64) } as unknown as Ddo;
  assert.equal(assetAtTopLevel(renamed).id, renamed.id);
});

Deno.test("a sandbox seeded with 5.0.0 DDOs sends that form, and a free job runs on it", async () => {
  const sandbox = startOceanSandbox({ count: 40, ddoVersion: "5.0.0", compute: { stepMs: 20 } });
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const { dataset, algorithm, environment } = sandbox.computeExample();
    assert.match(dataset.documentId, /^did:ope:[0-9a-f]{64}$/);
    const sent = await (await fetch(`${sandbox.url}/api/aquarius/assets/ddo/${dataset.documentId}`))
      .json();
    assert.equal(sent.version, "5.0.0");
    assert.deepEqual(sent.type, ["VerifiableCredential"]);
    for (const key of ["services", "metadata", "chainId", "nftAddress"]) {
      assert.ok(!(key in sent), `${key} is only under credentialSubject`);
      assert.ok(key in sent.credentialSubject, key);
    }
    assert.equal(typeof sent.credentialSubject.metadata.description["@value"], "string");

    const ddo = await node.ddo(dataset.documentId);
    const service = ddo.services.find((s) => s.id === dataset.serviceId && s.type === "compute");
    assert.ok(service, "the compute service by its id and type");
    assert.ok(service.compute, "with its compute options");
    assert.equal(ddo.services, ddo.credentialSubject?.services, "one list, reached both ways");
    const table = await node.searchAssets({}, { includeUnlisted: true });
    assert.equal(table.numRows(), 40);
    assert.deepEqual([...new Set(table.array("version") as string[])], ["5.0.0"]);

    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const [job] = await node.startFreeCompute({
      signer,
      environment,
      algorithm,
      datasets: [dataset],
      resources: [{ id: "cpu", amount: 1 }],
      maxJobDuration: 60,
    });
    const done = await node.waitForJob(signer.address, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    assert.ok(done.status === 70 || done.status === 71, done.statusText);
    const saved = await node.downloadResults(done, { signer, dir });
    assert.ok(saved.numRows() > 0);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("orderAsset on a DDO form tidepool cannot read says so before any transaction, not a TypeError", async () => {
  // A made-up later form: the asset under a key tidepool does not know.
  const unknownForm = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    id: "did:ope:00000000000000000000000000000000000000000000000000000000000000aa",
    version: "6.0.0",
    asset: { services: [ACCESS] },
  } as unknown as Ddo;
  const sandbox = startOceanSandbox({ ddos: [unknownForm], compute: false });
  try {
    const node = new OceanNode(sandbox.url, { progress: false, retry: false });
    const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
    const requestsBefore = sandbox.requestCount;
    await assert.rejects(
      // No chain runs here: a check that reached the chain would fail on the RPC instead.
      orderAsset(node, {
        did: unknownForm.id,
        serviceId: String(ACCESS.id),
        signer,
        rpcUrl: "http://127.0.0.1:9",
      }),
      (error: Error) => {
        assert.ok(error instanceof TidepoolError, `${error.name}: ${error.message}`);
        assert.match(error.message, /version 6\.0\.0\) lists no services/);
        assert.match((error as TidepoolError).hint ?? "", /credentialSubject/);
        return true;
      },
    );
    // Only the DDO was asked for: no initialize, nothing signed.
    assert.equal(sandbox.requestCount - requestsBefore, 1);
  } finally {
    await sandbox.close();
  }
});
