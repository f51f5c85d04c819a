/**
 * Allowances decide what a contract may take, so an order treats them as
 * money. Two defects of one class, an allowance the order did not set to
 * what it quoted:
 *
 * - `startOrder` takes the publishing market's fee as the datatoken says it
 *   when it runs, bounded only by the wallet's allowance to the datatoken.
 *   A wallet that already allowed the datatoken more than the quote (an
 *   earlier approval of another program) sent no approval, and a fee raised
 *   between the lane's last check and `startOrder` was taken, past maxPrice.
 * - An approval sets an allowance: one the wallet held for another program
 *   (0.5 Ocean for the exchange) was 0 after one order.
 *
 * Now every allowance the order uses ends as it was, and `startOrder` runs
 * against exactly the quoted fees. Checked on anvil: balances of the buyer
 * and the market, allowances, `OrderStarted` events.
 */

import assert from "node:assert/strict";
import {
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
  parseTransaction,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey } from "../../mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { moneyWorld, privateStateDir, rpcProxy } from "./_money_world.ts";

type Hex = `0x${string}`;
const SET_FEE = parseAbi([
  "function setPublishingMarketFee(address _publishMarketFeeAddress, address _publishMarketFeeToken, uint256 _publishMarketFeeAmount)",
  "function getPublishingMarketFee() view returns (address, address, uint256)",
]);

Deno.test("an order leaves every allowance as it was and pays no fee raised after its quote", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const datatoken = ocean.ddos.find((d) => d.id === did)!.services
    .find((s) => s.id === serviceId)!.datatokenAddress as Hex;
  const oceanToken = chain.contracts.oceanToken;
  const exchange = chain.contracts.fixedRateExchange;
  const market = privateKeyToAccount(generatePrivateKey()).address;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const viemChain = defineChain({
    id: chain.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const mined = async (hash: Hex) =>
    assert.equal(
      (await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status,
      "success",
    );
  /** The datatoken's publishing market fee, set by whoever may set it now. */
  const setMarketFee = async (amount: string) => {
    const [current] = await reader.readContract({
      address: datatoken,
      abi: SET_FEE,
      functionName: "getPublishingMarketFee",
    });
    const { walletClient } = chainClients(chain);
    await reader.request({
      method: "anvil_impersonateAccount" as never,
      params: [current] as never,
    });
    await reader.request({
      method: "anvil_setBalance" as never,
      params: [current, "0x56BC75E2D63100000"] as never,
    });
    await mined(
      await walletClient.writeContract({
        address: datatoken,
        abi: SET_FEE,
        functionName: "setPublishingMarketFee",
        args: [market, oceanToken, parseEther(amount)],
        account: current,
        chain: walletClient.chain,
      }),
    );
  };
  const allowance = (owner: string, spender: string) =>
    reader.readContract({
      address: oceanToken,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner as Hex, spender as Hex],
    });
  /** A buyer with 10 Ocean that allowed `spender` `amount` outside tidepool (another program). */
  const buyerAllowing = async (spender: string, amount: string) => {
    const key = generatePrivateKey();
    const signer = signerFromPrivateKey(key);
    await chain.fund(signer.address, "10");
    const wallet = createWalletClient({
      account: privateKeyToAccount(key),
      chain: viemChain,
      transport: http(chain.rpcUrl),
    });
    await mined(
      await wallet.writeContract({
        address: oceanToken,
        abi: erc20Abi,
        functionName: "approve",
        args: [spender as Hex, parseEther(amount)],
      }),
    );
    return signer;
  };
  try {
    await setMarketFee("0.1");

    await t.step("a market fee raised after the lane's last check is not taken", async () => {
      const signer = await buyerAllowing(datatoken, "5");
      const proxy = rpcProxy(chain.rpcUrl, {
        before: async (call) => {
          if (call.method !== "eth_sendRawTransaction") return undefined;
          const tx = parseTransaction(call.params[0] as Hex);
          // The publisher front-runs the order's startOrder: the fee goes to 3 Ocean.
          if (tx.to?.toLowerCase() === datatoken.toLowerCase()) await setMarketFee("3");
          return undefined;
        },
      });
      try {
        const before = await world.oceanOf(signer.address);
        const marketBefore = await world.oceanOf(market);
        const error = await orderAsset(node, {
          did,
          serviceId,
          signer,
          rpcUrl: proxy.url,
          maxPrice: "2",
        }).then(() => undefined, (e) => e);
        const spent = before - await world.oceanOf(signer.address);
        assert.ok(
          spent <= parseEther("2"),
          `${spent} base units left the wallet under maxPrice 2 (${error?.message ?? "ordered"})`,
        );
        assert.equal(await world.oceanOf(market) - marketBefore, 0n, "the raised fee was not paid");
        assert.ok(error instanceof Error, "the order with the raised fee failed");
        assert.match(error.message, /the payment went through but the order failed/);
        assert.equal(await allowance(signer.address, datatoken), parseEther("5"), "given back");
      } finally {
        await proxy.close();
        await setMarketFee("0.1");
      }
    });

    await t.step("an allowance held for another program outlives an order", async () => {
      for (const [spender, amount] of [[exchange, "0.5"], [exchange, "5"], [datatoken, "5"]]) {
        const signer = await buyerAllowing(spender, amount);
        const before = await world.oceanOf(signer.address);
        const order = await orderAsset(node, {
          did,
          serviceId,
          signer,
          rpcUrl: chain.rpcUrl,
          maxPrice: "2",
        });
        assert.equal(before - await world.oceanOf(signer.address), parseEther("1.101"));
        assert.deepEqual((await world.ordersPaidBy(signer.address)).map((o) => o.tx), [
          order.txHash,
        ]);
        assert.equal(
          await allowance(signer.address, spender),
          parseEther(amount),
          `the allowance of ${amount} Ocean for ${
            spender === exchange ? "the exchange" : "the datatoken"
          }`,
        );
        const other = spender === exchange ? datatoken : exchange;
        assert.equal(await allowance(signer.address, other), 0n, "no allowance left behind");
      }
    });
  } finally {
    await world.close();
  }
});
