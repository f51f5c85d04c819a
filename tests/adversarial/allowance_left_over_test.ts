/**
 * An order that pays less than quoted leaves no allowance behind. The
 * approvals are sized to the quote (the exchange's to add the price, the
 * datatoken's to exactly the fees), and an allowance was set back only
 * after a stop or a failure, or when the wallet had one before: when the
 * publisher lowered its market fee before `startOrder`, or the exchange's
 * rate before `buyDT`, the order succeeded and the difference stayed
 * allowed (0.05 Ocean to the datatoken, 0.5005 Ocean to the exchange),
 * against "every allowance the order uses ends as it was". The class: an
 * allowance an order changed and did not spend. Members: the datatoken's
 * (a market fee lowered), the exchange's (a rate lowered). Checked on
 * anvil with viem: allowances and the `OrderStarted` events.
 */

import assert from "node:assert/strict";
import { parseAbi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { orderAsset } from "../../mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import {
  changeBeforeFill,
  downloadOrder,
  fundedBuyer,
  moneyWorld,
  oceanAllowance,
  privateStateDir,
  setMarketFee,
} from "./_money_world.ts";

type Hex = `0x${string}`;

const EXCHANGE = parseAbi([
  "function getFixedRates() view returns ((address contractAddress, bytes32 id)[])",
  "function getExchange(bytes32 exchangeId) view returns (address exchangeOwner, address datatoken, uint256 dtDecimals, address baseToken, uint256 btDecimals, uint256 fixedRate, bool active, uint256 dtSupply, uint256 btSupply, uint256 dtBalance, uint256 btBalance, bool withMint)",
  "function setRate(bytes32 exchangeId, uint256 newRate)",
]);

Deno.test("an order that pays less than quoted leaves every allowance as it was", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { chain, reader } = world;
  const { did, serviceId, datatoken, exchange, node } = downloadOrder(world);
  const market = privateKeyToAccount(generatePrivateKey()).address;
  const allowance = (owner: string, spender: string) => oceanAllowance(world, owner, spender);
  /** The exchange's owner sets its rate (impersonated on anvil). */
  const setRate = async (rate: string) => {
    const [{ id }] = await reader.readContract({
      address: datatoken,
      abi: EXCHANGE,
      functionName: "getFixedRates",
    });
    const [owner] = await reader.readContract({
      address: exchange,
      abi: EXCHANGE,
      functionName: "getExchange",
      args: [id],
    });
    await reader.request({ method: "anvil_impersonateAccount" as never, params: [owner] as never });
    const { walletClient } = chainClients(chain);
    const hash = await walletClient.writeContract({
      address: exchange,
      abi: EXCHANGE,
      functionName: "setRate",
      args: [id, parseEther(rate)],
      account: owner,
      chain: walletClient.chain,
    });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    assert.equal(receipt.status, "success", "the rate was set");
  };
  /** Orders through a proxy that runs `change` once, as the wallet fills its transaction to `to`. */
  const order = async (to: Hex, change: () => Promise<void>) => {
    const signer = await fundedBuyer(world, "10");
    const proxy = changeBeforeFill(world, to, change);
    try {
      await orderAsset(node, { did, serviceId, signer, rpcUrl: proxy.url, maxPrice: "2" });
      assert.ok(proxy.changed(), "the publisher changed its terms before the transaction");
      assert.equal((await world.ordersPaidBy(signer.address)).length, 1, "the order was placed");
      return signer;
    } finally {
      await proxy.close();
    }
  };
  try {
    await setMarketFee(world, datatoken, market, "0.1");
    await t.step("a market fee lowered before startOrder", async () => {
      const signer = await order(datatoken, () => setMarketFee(world, datatoken, market, "0.05"));
      assert.equal(await allowance(signer.address, datatoken), 0n, "the datatoken allowed nothing");
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
    });

    await t.step("the exchange's rate lowered before buyDT", async () => {
      const signer = await order(exchange, () => setRate("0.5"));
      assert.equal(await allowance(signer.address, exchange), 0n, "the exchange allowed nothing");
      assert.equal(await allowance(signer.address, datatoken), 0n, "the datatoken allowed nothing");
    });
  } finally {
    await world.close();
  }
});
