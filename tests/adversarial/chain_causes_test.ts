/**
 * Failures another sender causes get a cause and a hint that fit them: a
 * transaction of the same nonce waiting in the pool ("replacement
 * transaction underpriced"), a nonce another process took, and an allowance
 * another program spent between the approval and the purchase. A JSON-RPC
 * proxy before anvil plays the other side; anvil says what was mined.
 */

import assert from "node:assert/strict";
import { createWalletClient, erc20Abi, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { moneyWorld, type RpcCall, rpcProxy } from "./_money_world.ts";

Deno.test("another sender's doings are named by cause, with the hint that fits", async (t) => {
  const world = await moneyWorld();
  const { ocean, chain } = world;
  const { documentId: did, serviceId } = world.download;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  /** A buyer whose key the test holds too, as a second process would. */
  const buyer = async () => {
    const key = generatePrivateKey();
    await chain.fund(privateKeyToAccount(key).address, "10");
    const account = privateKeyToAccount(key);
    const other = createWalletClient({ account, transport: http(chain.rpcUrl) });
    return { key, signer: signerFromPrivateKey(key), account, other };
  };
  const order = async (signer: ReturnType<typeof signerFromPrivateKey>, proxy: { url: string }) =>
    await orderAsset(node, { did, serviceId, signer, rpcUrl: proxy.url })
      .then(() => undefined, (e) => e);
  try {
    await t.step("replacement transaction underpriced", async () => {
      const { signer } = await buyer();
      const proxy = rpcProxy(chain.rpcUrl, {
        before: (call: RpcCall) =>
          Promise.resolve(
            call.method === "eth_sendRawTransaction"
              ? { error: { code: -32000, message: "replacement transaction underpriced" } }
              : undefined,
          ),
      });
      try {
        const error = await order(signer, proxy);
        assert.equal(await world.sent(signer.address), 0, "nothing was mined");
        assert.ok(error instanceof TidepoolError, String(error));
        assert.match(String(error.hint), /same nonce is waiting in the chain's pool/);
        assert.doesNotMatch(error.message, /rpcUrl and chainId/);
      } finally {
        await proxy.close();
      }
    });

    await t.step("a nonce another process took", async () => {
      const { signer, account, other } = await buyer();
      let raced = false;
      const proxy = rpcProxy(chain.rpcUrl, {
        before: async (call: RpcCall) => {
          if (call.method !== "eth_sendRawTransaction" || raced) return undefined;
          raced = true;
          // The other process sends first, with the nonce tidepool just signed with.
          const hash = await other.sendTransaction({
            to: account.address,
            value: 0n,
            chain: null,
          });
          await world.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
          return undefined;
        },
      });
      try {
        const before = await world.oceanOf(signer.address);
        const error = await order(signer, proxy);
        assert.equal(await world.sent(signer.address), 1, "only the other process's transaction");
        assert.equal(await world.oceanOf(signer.address), before);
        assert.ok(error instanceof TidepoolError, String(error));
        assert.match(
          String(error.hint),
          /took the same nonce, sent from another program or process/,
        );
      } finally {
        await proxy.close();
      }
    });

    await t.step("an allowance another program spent before the purchase", async () => {
      const { signer, other } = await buyer();
      let approvals = 0;
      const proxy = rpcProxy(chain.rpcUrl, {
        after: async (call: RpcCall, answer) => {
          const receipt = answer.result as { status?: string } | null;
          if (call.method !== "eth_getTransactionReceipt" || !receipt?.status) return;
          if (++approvals !== 1) return;
          // Once tidepool's approval is mined, another program of this key zeroes it.
          const exchange = chain.contracts.fixedRateExchange;
          const hash = await other.writeContract({
            address: chain.contracts.oceanToken,
            abi: erc20Abi,
            functionName: "approve",
            args: [exchange, 0n],
            chain: null,
          });
          await world.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        },
      });
      try {
        const before = await world.oceanOf(signer.address);
        const error = await order(signer, proxy);
        assert.equal(await world.oceanOf(signer.address), before, "nothing was paid");
        assert.equal((await world.ordersPaidBy(signer.address)).length, 0);
        assert.ok(error instanceof TidepoolError, String(error));
        assert.match(String(error.hint), /allowance this order set was spent or lowered/);
        assert.doesNotMatch(String(error.hint), /pricing/);
      } finally {
        await proxy.close();
      }
    });
  } finally {
    await world.close();
  }
});
