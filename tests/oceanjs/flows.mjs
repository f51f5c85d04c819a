// ocean.js 8.6.2, unchanged, against a tidepool sandbox node and its chain.
// Run by tests/sandbox/oceanjs_test.ts from the folder it installed ocean.js
// into: `node flows.mjs <setup.json> [step,step]` (the steps named, or all).
// Prints one JSON object: what ocean.js got from each flow, for the test to check.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { JsonRpcProvider, Wallet } from "ethers";
import {
  Aquarius,
  Datatoken,
  Dispenser,
  LoggerInstance,
  LogLevel,
  ProviderInstance,
} from "@oceanprotocol/lib";

// ocean.js logs its failures (a transaction it could not send) on stderr, which the test shows.
LoggerInstance.setLevel(LogLevel.Error);

const setup = JSON.parse(readFileSync(process.argv[2], "utf8"));
const node = setup.node;
// No cache of RPC answers: on a local chain that mines at once, ethers' 250 ms cache would hand
// the second transaction the first one's account nonce.
const provider = new JsonRpcProvider(setup.rpcUrl, setup.chainId, {
  staticNetwork: true,
  cacheTimeout: -1,
});
provider.pollingInterval = 50;
const signer = new Wallet(setup.key, provider);
const address = await signer.getAddress();
const config = {
  chainId: setup.chainId,
  network: "development",
  nodeUri: setup.rpcUrl,
  oceanNodeUri: node,
  oceanTokenAddress: setup.contracts.oceanToken,
  dispenserAddress: setup.contracts.dispenser,
  fixedRateExchangeAddress: setup.contracts.fixedRateExchange,
  nftFactoryAddress: setup.contracts.erc721Factory,
  routerFactoryAddress: setup.contracts.router,
};
const out = {};
const only = process.argv[3]?.split(",");
const step = async (name, run) => {
  if (only && !only.includes(name)) return;
  try {
    out[name] = { ok: true, value: await run() };
  } catch (error) {
    out[name] = { ok: false, error: String(error?.message ?? error) };
  }
};
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

await step("nonce", () => ProviderInstance.getNonce(node, address));
await step(
  "fileInfo",
  () => ProviderInstance.checkDidFiles(setup.download.did, setup.download.serviceId, node, true),
);
await step(
  "environments",
  async () => (await ProviderInstance.getComputeEnvironments(node)).map((env) => env.id),
);
await step(
  "encrypt",
  () => ProviderInstance.encrypt({ hello: "sandbox" }, setup.chainId, node, signer),
);
await step("download", async () => {
  const { did, serviceId, serviceIndex, datatoken } = setup.download;
  const dispensed = await new Dispenser(config.dispenserAddress, signer, setup.chainId, config)
    .dispense(datatoken, "1", address);
  await dispensed.wait();
  const initialized = await ProviderInstance.initialize(did, serviceId, 0, address, node);
  const order = await new Datatoken(signer, setup.chainId, config)
    .startOrder(datatoken, address, serviceIndex, initialized.providerFee);
  const receipt = await order.wait();
  const url = await ProviderInstance.getDownloadUrl(did, serviceId, 0, receipt.hash, node, signer);
  const response = await fetch(url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { nonce: initialized.nonce, status: response.status, sha256: sha256(bytes) };
});
await step(
  "refusedInitialize",
  () => ProviderInstance.initialize(setup.disabled.did, setup.disabled.serviceId, 0, address, node),
);
await step("compute", async () => {
  const { dataset, algorithm, environment } = setup.compute;
  const started = await ProviderInstance.freeComputeStart(
    node,
    signer,
    environment,
    [dataset],
    algorithm,
  );
  const job = Array.isArray(started) ? started[0] : started;
  let status;
  for (let i = 0; i < 400; i++) {
    const listed = await ProviderInstance.computeStatus(node, signer, job.jobId);
    status = Array.isArray(listed) ? listed[0] : listed;
    if (status && status.status >= 70) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const index = status.results.findIndex((result) => result.type === "output");
  const url = await ProviderInstance.getComputeResultUrl(node, signer, job.jobId, index);
  const response = await fetch(url);
  const text = await response.text();
  return { jobId: job.jobId, status: status.status, resultStatus: response.status, text };
});
await step("waitForIndexer", async () => {
  const aquarius = new Aquarius(node);
  const found = await aquarius.waitForIndexer(
    setup.indexed.did,
    setup.indexed.txid,
    undefined,
    50,
    20,
  );
  return found?.id;
});
await step("authToken", () => ProviderInstance.generateAuthToken(signer, node));
console.log(JSON.stringify(out));
