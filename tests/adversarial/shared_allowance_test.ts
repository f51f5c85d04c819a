/**
 * The orders of one plan share an allowance: a paid compute start buys the
 * algorithm's and the dataset's datatokens from the same fixed-rate
 * exchange, and each order's approval is planned against the allowance the
 * chain shows before either is sent. A wallet that already allows the
 * exchange one order's price (what a start stopped right after its first
 * approval leaves) plans no approval for either; the first purchase spends
 * the allowance and the second reverts, after the first order was paid.
 * (A stop now also sets the allowance back, so the second start finds none.)
 * Checked on anvil: the orders, the allowance and the Ocean spent.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { moneyWorld, privateStateDir, rpcProxy } from "./_money_world.ts";

Deno.test("a start stopped after its first approval starts when asked again", async () => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, example } = world;
  const signer = signerFromPrivateKey(generatePrivateKey());
  await chain.fund(signer.address, "10");
  const stop = new AbortController();
  const proxy = rpcProxy(chain.rpcUrl, {
    after: (call) => {
      if (call.method === "eth_sendRawTransaction") stop.abort(new Error("stopped"));
    },
  });
  try {
    const node = new OceanNode(ocean.url, { progress: false, retry: false });
    const parameters = {
      signer,
      environment: example.environment,
      algorithm: example.algorithm,
      datasets: [example.dataset],
      maxJobDuration: 60,
    };
    const before = await world.oceanOf(signer.address);
    await assert.rejects(
      node.startCompute({ ...parameters, rpcUrl: proxy.url, signal: stop.signal }),
      /stopped by the signal/,
    );
    // The first approval, and the one that sets the exchange's allowance back (issue 53).
    assert.equal(await world.sent(signer.address), 2, "the first approval and its undoing");
    assert.equal(
      await world.reader.readContract({
        address: chain.contracts.oceanToken,
        abi: erc20Abi,
        functionName: "allowance",
        args: [signer.address as `0x${string}`, chain.contracts.fixedRateExchange],
      }),
      0n,
      "the exchange is allowed nothing after the stop",
    );
    assert.equal(await world.oceanOf(signer.address), before, "nothing paid");

    const started = await node.startCompute({ ...parameters, rpcUrl: chain.rpcUrl })
      .catch((error) => error);
    const orders = await world.ordersPaidBy(signer.address);
    assert.equal(
      orders.length,
      2,
      `both orders placed when started again (${
        started instanceof Error ? started.message : `${started.jobs.length} jobs`
      })`,
    );
    assert.equal(before - await world.oceanOf(signer.address), parseEther("2.002"));
    assert.ok(!(started instanceof Error), "the job started");
  } finally {
    await proxy.close();
    await world.close();
  }
});
