/**
 * An approval the chain mined but whose answer never came back is still
 * set back. The order's clean-up after a failure set back only the
 * approvals whose hash it had: when the RPC endpoint (a proxy, a load
 * balancer, a dropped connection) forwarded `eth_sendRawTransaction` and
 * then answered an error, the approval stood on chain and was left there:
 * the fixed-rate exchange allowed 1.001 Ocean, the datatoken its market
 * fee. The class: an allowance an order changed without knowing it did.
 * Members: the exchange's approval (nothing paid yet), the datatoken's
 * approval for a market fee (after the purchase). Checked on anvil with
 * viem: allowances, balances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { decodeFunctionData, erc20Abi, parseTransaction } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { orderAsset, TidepoolError } from "../../mod.ts";
import {
  downloadOrder,
  fundedBuyer,
  moneyWorld,
  oceanAllowance,
  privateStateDir,
  rpcProxy,
  setMarketFee,
} from "./_money_world.ts";

type Hex = `0x${string}`;

Deno.test("an approval mined but answered with an error is set back", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { chain } = world;
  const { did, serviceId, datatoken, exchange, node } = downloadOrder(world);
  const allowance = (owner: string, spender: string) => oceanAllowance(world, owner, spender);
  /** Orders through a proxy that sends the approval for `spender` on, then answers an error. */
  const order = async (spender: Hex, maxPrice?: string) => {
    const signer = await fundedBuyer(world, "10");
    let lost = 0;
    const proxy = rpcProxy(chain.rpcUrl, {
      before: async (call) => {
        if (call.method !== "eth_sendRawTransaction" || lost > 0) return undefined;
        const tx = parseTransaction(call.params[0] as Hex);
        if (!tx.data?.startsWith("0x095ea7b3")) return undefined;
        const { args } = decodeFunctionData({ abi: erc20Abi, data: tx.data });
        if ((args[0] as string).toLowerCase() !== spender.toLowerCase()) return undefined;
        // The chain takes it; the answer is lost on the way back.
        const answer = await fetch(chain.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...call }),
        }).then((r) => r.json());
        assert.ok(answer.result, `the chain took the approval: ${JSON.stringify(answer)}`);
        lost++;
        return { error: { code: -32603, message: "upstream connection reset" } };
      },
    });
    try {
      const error = await orderAsset(node, { did, serviceId, signer, rpcUrl: proxy.url, maxPrice })
        .then(() => undefined, (e) => e);
      assert.ok(error instanceof TidepoolError, `the order failed: ${error}`);
      assert.equal(lost, 1, "one approval's answer was lost");
      return signer;
    } finally {
      await proxy.close();
    }
  };
  try {
    await t.step("the exchange's approval", async () => {
      const signer = await order(exchange);
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.equal(await world.oceanOf(signer.address), 10n * 10n ** 18n, "nothing paid");
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });

    await t.step("the datatoken's approval for a market fee", async () => {
      const market = privateKeyToAccount(generatePrivateKey()).address;
      await setMarketFee(world, datatoken, market, "0.1");
      const signer = await order(datatoken, "2");
      assert.equal(await allowance(signer.address, datatoken), 0n, "the datatoken allowed nothing");
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });
  } finally {
    await world.close();
  }
});
