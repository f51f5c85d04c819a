/**
 * The sandbox node charging for resources through the real Escrow, as
 * ocean-node does: initializeCompute quotes the escrow's terms, the start
 * locks the quoted price after ocean-node's checks, the end claims it; a
 * lock the authorization does not cover is refused with no job. Every
 * figure is read from the chain with viem. The payer's side is sent with
 * viem here, as ocean.js sends it, so that the node is tested apart from
 * tidepool's own escrow payment (tests/chain/escrow_paid_compute_test.ts),
 * on orders tidepool made for a first job while the prices were 0.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseAbi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, withdrawEscrow } from "../../lib/ocean/mod.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { escrowJobId, startChainSandbox } from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
// The engine hashes only its own id (the answer without its cluster hash) for the Escrow.
import { shortJobId } from "../ocean_compute/_job_ids.ts";

const ESCROW = parseAbi([
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function getLocks(address token, address payer, address payee) view returns ((uint256 jobId, address payer, uint256 amount, uint256 expiry, address token)[])",
  "function cancelExpiredLock(uint256 jobId, address token, address payer, address payee)",
]);
const RESOURCES = [{ id: "cpu", amount: 1 }, { id: "ram", amount: 1 }];

async function pricedNode() {
  const ocean = startOceanSandbox({ count: 40, compute: { stepMs: 5 } });
  const seeded = ocean.computeExample();
  const chain = await startChainSandbox(ocean, {
    dids: [seeded.dataset.documentId, seeded.algorithm.documentId],
    pricing: () => ({ type: "free" }),
    resourcePrices: { cpu: 0.5, ram: 0.25 },
  });
  const { dataset, algorithm, environment } = ocean.computeExample();
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const key = generatePrivateKey();
  const buyer = signerFromPrivateKey(key);
  const account = privateKeyToAccount(key);
  await chain.fund(buyer.address, "10");
  const { publicClient, walletClient } = chainClients(chain);
  const token = chain.contracts.oceanToken;
  const escrow = chain.contracts.escrow;
  const send = async (
    address: `0x${string}`,
    abi: unknown,
    functionName: string,
    args: unknown[],
  ) => {
    const hash = await walletClient.writeContract(
      { address, abi, functionName, args, account, chain: walletClient.chain } as never,
    );
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    assert.equal(receipt.status, "success", `${functionName} reverted`);
  };
  const balance = (address: string) =>
    publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address as `0x${string}`],
    });
  const funds = () =>
    publicClient.readContract({
      address: escrow,
      abi: ESCROW,
      functionName: "getUserFunds",
      args: [buyer.address, token],
    });
  const payment = { chainId: chain.chainId, token };
  // The orders, made by tidepool while the environment's prices are set to 0 for one job
  // (so that they are made without the escrow), then reused by the priced jobs.
  const fee = ocean.environments[0].fees![String(chain.chainId)][0];
  const prices = fee.prices;
  fee.prices = prices.map((p) => ({ ...p, price: 0 }));
  const first = await node.startCompute({
    signer: buyer,
    environment,
    algorithm,
    datasets: [dataset],
    rpcUrl: chain.rpcUrl,
    maxJobDuration: 60,
    resources: RESOURCES,
  });
  fee.prices = prices;
  const orders = [first.orders.algorithm, first.orders.datasets[0]];
  const terms = await node.initializeCompute({
    consumer: buyer,
    environment,
    algorithm,
    datasets: [dataset],
    payment,
    maxJobDuration: 60,
    resources: RESOURCES,
  });
  const start = async () => {
    const fields = await signRequest(buyer, "startCompute", {
      nonce: String(BigInt(await node.nonce(buyer.address)) + 1n),
    });
    return await fetch(`${ocean.url}/api/services/compute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        ...fields,
        environment,
        algorithm: { ...algorithm, transferTxId: orders[0].txHash },
        datasets: [{ ...dataset, transferTxId: orders[1].txHash }],
        payment,
        resources: RESOURCES,
        maxJobDuration: 60,
      }),
    });
  };
  return { ocean, chain, node, buyer, key, terms, send, balance, funds, start, token, escrow };
}

Deno.test("a priced environment quotes, locks and claims the job's price through the Escrow", async () => {
  const { ocean, chain, node, buyer, terms, send, balance, funds, start, token, escrow } =
    await pricedNode();
  try {
    // cpu 0.5 + ram 0.25 Ocean a minute, one minute.
    assert.deepEqual(terms.payment, {
      escrowAddress: escrow,
      payee: chain.nodeAddress,
      chainId: chain.chainId,
      minLockSeconds: 60 + 600,
      token,
      amount: parseEther("0.75").toString(),
    });
    const amount = BigInt(terms.payment!.amount!);
    await send(token, erc20Abi, "approve", [escrow, amount]);
    await send(escrow, ESCROW, "deposit", [token, amount]);
    await send(escrow, ESCROW, "authorize", [token, chain.nodeAddress, amount, 660n, 1n]);
    const buyerBefore = await balance(buyer.address);
    const nodeBefore = await balance(chain.nodeAddress);
    const collector = chain.contracts.opfCommunityFeeCollector;
    const collectorBefore = await balance(collector);

    const answer = await start();
    assert.equal(answer.status, 200, await answer.clone().text());
    const [job] = await answer.json();
    const locked = await funds();
    assert.deepEqual([locked.available, locked.locked], [0n, amount], "locked at the start");
    const { publicClient } = chainClients(chain);
    const [lock] = await publicClient.readContract({
      address: escrow,
      abi: ESCROW,
      functionName: "getLocks",
      args: [token, buyer.address, chain.nodeAddress],
    });
    assert.equal(
      lock.jobId,
      escrowJobId(shortJobId(job.jobId)),
      "keyed by the SHA-256 of the job id",
    );

    const done = await node.waitForJob(buyer.address, job.jobId, { pollMs: 10, timeoutMs: 5_000 });
    assert.ok(done.status === 71 || done.status === 70, `finished: ${done.status}`);
    const after = await funds();
    assert.deepEqual([after.available, after.locked], [0n, 0n], "claimed at the end");
    // The Escrow keeps Ocean's community fee (0.1 %) of a claim for the OPC collector.
    const paid = (await balance(chain.nodeAddress)) - nodeBefore;
    const fee = (await balance(collector)) - collectorBefore;
    assert.deepEqual([paid, fee], [parseEther("0.74925"), parseEther("0.00075")]);
    assert.equal(paid + fee, amount, "the claim is the whole lock");
    assert.equal(await balance(buyer.address), buyerBefore, "nothing more left the wallet");
  } finally {
    await chain.close();
    await ocean.close();
  }
});

Deno.test("a lock the authorization does not cover is refused: no job, nothing locked", async () => {
  const { ocean, chain, node, buyer, terms, send, funds, start, token, escrow } =
    await pricedNode();
  try {
    const amount = BigInt(terms.payment!.amount!);
    await send(token, erc20Abi, "approve", [escrow, amount]);
    await send(escrow, ESCROW, "deposit", [token, amount]);
    // Authorized for less than the job's price, then for too short a lock.
    await send(escrow, ESCROW, "authorize", [token, chain.nodeAddress, amount - 1n, 660n, 1n]);
    const over = await start();
    assert.deepEqual([over.status, await over.text()], [
      400,
      "No valid escrow auths found(will go over limit)",
    ]);
    await send(escrow, ESCROW, "authorize", [token, chain.nodeAddress, amount, 659n, 1n]);
    const short = await start();
    assert.deepEqual([short.status, await short.text()], [
      400,
      "No valid escrow auths found(maxLockSeconds too low)",
    ]);
    const held = await funds();
    assert.deepEqual([held.available, held.locked], [amount, 0n]);
    assert.equal((await node.jobs(buyer.address)).numRows(), 1, "only the unpriced first job");
  } finally {
    await chain.close();
    await ocean.close();
  }
});

Deno.test("a node that locks more than it quoted is stopped by an authorization of the quote", async () => {
  const { ocean, chain, send, funds, start, token, escrow, terms } = await pricedNode();
  try {
    const amount = BigInt(terms.payment!.amount!);
    ocean.compute!.faults.escrowLockFactor = 2;
    await send(token, erc20Abi, "approve", [escrow, 2n * amount]);
    await send(escrow, ESCROW, "deposit", [token, 2n * amount]);
    await send(escrow, ESCROW, "authorize", [token, chain.nodeAddress, amount, 660n, 1n]);
    const answer = await start();
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /Exceeds maxLockedAmount/, "the Escrow itself refused");
    const held = await funds();
    assert.deepEqual([held.available, held.locked], [2n * amount, 0n], "nothing locked");
  } finally {
    await chain.close();
    await ocean.close();
  }
});

Deno.test("a node that never claims: the lock expires and the payer takes it all back", async () => {
  const { ocean, chain, node, buyer, key, send, balance, funds, start, token, escrow, terms } =
    await pricedNode();
  try {
    const amount = BigInt(terms.payment!.amount!);
    ocean.compute!.faults.escrowNeverClaims = true;
    const before = await balance(buyer.address);
    await send(token, erc20Abi, "approve", [escrow, amount]);
    await send(escrow, ESCROW, "deposit", [token, amount]);
    await send(escrow, ESCROW, "authorize", [token, chain.nodeAddress, amount, 660n, 1n]);
    const answer = await start();
    assert.equal(answer.status, 200, await answer.clone().text());
    const [job] = await answer.json();
    await node.waitForJob(buyer.address, job.jobId, { pollMs: 10, timeoutMs: 5_000 });
    assert.deepEqual(Object.values(await funds()), [0n, amount], "still locked, never claimed");
    const { publicClient } = chainClients(chain);
    // Past the lock's 660 s, anyone may cancel it; then the payer withdraws.
    await publicClient.request({ method: "evm_increaseTime" as never, params: [661] as never });
    await publicClient.request({ method: "evm_mine" as never, params: [] as never });
    await send(escrow, ESCROW, "cancelExpiredLock", [
      escrowJobId(shortJobId(job.jobId)),
      token,
      buyer.address,
      chain.nodeAddress,
    ]);
    assert.deepEqual(Object.values(await funds()), [amount, 0n]);
    const back = await withdrawEscrow({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      escrow,
      token,
      account: privateKeyToAccount(key),
    });
    assert.equal(back.amount, "0.75");
    assert.equal(await balance(buyer.address), before, "every token came back");
  } finally {
    await chain.close();
    await ocean.close();
  }
});
