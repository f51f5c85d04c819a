/**
 * Every approval is set back after a stop or a failure, whatever its
 * spender. A stop, or a failed `buyDT`, right after the approval to the
 * fixed-rate exchange left it allowed 1.001 Ocean: only approvals to the
 * datatoken were restored, and only when the wallet had allowed it
 * something before. The class: an allowance an order changed and did not
 * spend. Members: a stop after the exchange's approval, a `buyDT` the
 * chain refuses, a `startOrder` the chain refuses after the datatoken's
 * approval (a market fee), a stop after the exchange's approval when the
 * wallet had allowed it something. Checked on anvil with viem: allowances,
 * balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther, parseTransaction } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, TidepoolError } from "../../mod.ts";
import {
  fundedBuyer,
  moneyWorld,
  privateStateDir,
  rpcProxy,
  setMarketFee,
  walletOf,
} from "./_money_world.ts";

type Hex = `0x${string}`;

Deno.test("an order stopped or failed after an approval leaves every allowance as it was", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const datatoken = ocean.ddos.find((d) => d.id === did)!.services
    .find((s) => s.id === serviceId)!.datatokenAddress as Hex;
  const oceanToken = chain.contracts.oceanToken;
  const exchange = chain.contracts.fixedRateExchange;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const allowance = (owner: string, spender: string) =>
    reader.readContract({
      address: oceanToken,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner as Hex, spender as Hex],
    });
  const buyer = async (allowExchange = "0") => {
    const key = generatePrivateKey();
    const signer = await fundedBuyer(world, "10", key);
    if (allowExchange !== "0") {
      const hash = await walletOf(world, key).writeContract({
        address: oceanToken,
        abi: erc20Abi,
        functionName: "approve",
        args: [exchange, parseEther(allowExchange)],
      });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    }
    return signer;
  };
  /**
   * Orders through a proxy that refuses the transaction sent to `refuse`
   * (the chain's own refusal), or stops the order once the k-th
   * transaction is mined; returns the error.
   */
  const order = async (
    signer: Awaited<ReturnType<typeof buyer>>,
    options: { refuse?: Hex; stopAfter?: number; maxPrice?: string },
  ) => {
    const stop = new AbortController();
    let sends = 0;
    const proxy = rpcProxy(chain.rpcUrl, {
      before: (call) => {
        if (call.method !== "eth_sendRawTransaction" || !options.refuse) {
          return Promise.resolve(undefined);
        }
        const tx = parseTransaction(call.params[0] as Hex);
        const refused = tx.to?.toLowerCase() === options.refuse.toLowerCase() &&
          !tx.data?.startsWith("0x095ea7b3"); // approvals pass; the payment or order is refused
        return Promise.resolve(
          refused ? { error: { code: -32000, message: "transaction refused" } } : undefined,
        );
      },
      after: (call) => {
        if (call.method === "eth_sendRawTransaction" && ++sends === options.stopAfter) {
          stop.abort(new Error(`stopped after transaction ${sends}`));
        }
      },
    });
    try {
      const error = await orderAsset(node, {
        did,
        serviceId,
        signer,
        rpcUrl: proxy.url,
        signal: stop.signal,
        maxPrice: options.maxPrice,
      }).then(() => undefined, (e) => e);
      assert.ok(error instanceof TidepoolError, `the order failed: ${error}`);
      return error as TidepoolError;
    } finally {
      await proxy.close();
    }
  };
  try {
    await t.step("a stop right after the exchange's approval", async () => {
      const signer = await buyer();
      const held = await world.oceanOf(signer.address);
      await order(signer, { stopAfter: 1 });
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.equal(await world.oceanOf(signer.address), held, "nothing paid");
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });

    await t.step("a stop right after the approval, the wallet having allowed 0.5", async () => {
      const signer = await buyer("0.5");
      await order(signer, { stopAfter: 1 });
      assert.equal(await allowance(signer.address, exchange), parseEther("0.5"));
    });

    await t.step("a buyDT the chain refuses", async () => {
      const signer = await buyer();
      const held = await world.oceanOf(signer.address);
      await order(signer, { refuse: exchange });
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.equal(await world.oceanOf(signer.address), held, "nothing paid");
    });

    await t.step("a startOrder the chain refuses after the datatoken's approval", async () => {
      const market = privateKeyToAccount(generatePrivateKey()).address;
      await setMarketFee(world, datatoken, market, "0.1");
      const signer = await buyer();
      await order(signer, { refuse: datatoken, maxPrice: "2" });
      assert.equal(await allowance(signer.address, datatoken), 0n, "the datatoken allowed nothing");
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });
  } finally {
    await world.close();
  }
});
