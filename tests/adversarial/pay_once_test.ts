/**
 * Pay once, even in parallel: calls for one service started together
 * (`Promise.all`, two `OceanNode` instances, one signer) pay once and all
 * return that order; two paid compute starts at once pay each asset once.
 * Checked on anvil: one `OrderStarted` per service, and the wallet's Ocean
 * went down by one quote.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey } from "../../mod.ts";
import { moneyWorld } from "./_money_world.ts";

Deno.test("one service ordered by parallel calls is paid once", async (t) => {
  const world = await moneyWorld();
  try {
    const { ocean, chain, example } = world;
    const { documentId: did, serviceId } = world.download;

    await t.step("three orderAsset calls at once, two clients, one signer", async () => {
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "10");
      const before = await world.oceanOf(signer.address);
      const nodes = [0, 1, 2].map(() => new OceanNode(ocean.url, { progress: false }));
      const orders = await Promise.all(
        nodes.map((node) => orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl })),
      );
      const paid = await world.ordersPaidBy(signer.address);
      assert.equal(paid.length, 1, "one OrderStarted on chain");
      assert.deepEqual(new Set(orders.map((o) => o.txHash)), new Set([paid[0].tx]));
      assert.deepEqual(orders.map((o) => o.source).sort(), ["exchange", "reused", "reused"]);
      assert.equal(before - await world.oceanOf(signer.address), parseEther("1.001"));
    });

    await t.step("two paid compute starts at once pay each asset once", async () => {
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "10");
      const before = await world.oceanOf(signer.address);
      const request = {
        signer,
        environment: example.environment,
        algorithm: example.algorithm,
        datasets: [example.dataset],
        rpcUrl: chain.rpcUrl,
        maxJobDuration: 60,
      };
      const started = await Promise.all(
        [0, 1].map(() => new OceanNode(ocean.url, { progress: false }).startCompute(request)),
      );
      const paid = await world.ordersPaidBy(signer.address);
      assert.equal(paid.length, 2, "one OrderStarted for the algorithm, one for the dataset");
      for (const { orders } of started) {
        assert.deepEqual(
          new Set([orders.algorithm.txHash, orders.datasets[0].txHash]),
          new Set(paid.map((p) => p.tx)),
        );
      }
      assert.equal(before - await world.oceanOf(signer.address), parseEther("2.002"));
    });
  } finally {
    await world.close();
  }
});
