/**
 * The cap is rounded up: `maxPrice` is turned into base units with viem's
 * `parseUnits`, which rounds a fraction longer than the token's decimals
 * half up. A cap with more decimals than the token has thus lets an order
 * take more than the cap: `"1.0009999999999999995"` Ocean (19 decimals)
 * allows 1.001 Ocean, and `"1.5"` of a token with no decimals allows 2 of
 * it. Checked on anvil: the wallet's balances after the order.
 */

import assert from "node:assert/strict";
import { createWalletClient, defineChain, erc20Abi, http, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, signerFromPrivateKey } from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";
import MockERC20Decimals from "@oceanprotocol/contracts/artifacts/contracts/utils/mock/MockERC20Decimals.sol/MockERC20Decimals.json" with {
  type: "json",
};

type Json = Record<string, unknown>;

Deno.test("maxPrice is a cap: never rounded up to the token's precision", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const proxies: { close(): Promise<void> }[] = [];
  const buyer = async () => {
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    return signer;
  };
  try {
    await t.step("1.0009999999999999995 Ocean does not allow 1.001 Ocean", async () => {
      const signer = await buyer();
      const node = new OceanNode(ocean.url, { progress: false, retry: false });
      const before = await world.oceanOf(signer.address);
      const order = await orderAsset(node, {
        did,
        serviceId,
        signer,
        rpcUrl: chain.rpcUrl,
        maxPrice: "1.0009999999999999995",
      }).catch((error) => error);
      assert.equal(
        await world.oceanOf(signer.address),
        before,
        `1.001 Ocean paid under a cap of 1.0009999999999999995 (${
          order instanceof Error ? order.message : `paid ${order.pricePaid}`
        })`,
      );
      assert.deepEqual(await world.ordersPaidBy(signer.address), []);
    });

    await t.step("1.5 of a token without decimals does not allow 2 of it", async () => {
      const stranger = privateKeyToAccount(generatePrivateKey());
      await reader.request({
        method: "anvil_setBalance" as never,
        params: [stranger.address, toHex(parseEther("10"))] as never,
      });
      const wallet = createWalletClient({
        account: stranger,
        chain: defineChain({
          id: chain.chainId,
          name: "anvil",
          nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
          rpcUrls: { default: { http: [chain.rpcUrl] } },
        }),
        transport: http(chain.rpcUrl),
      });
      const deployed = await reader.waitForTransactionReceipt({
        hash: await wallet.deployContract({
          abi: MockERC20Decimals.abi,
          bytecode: MockERC20Decimals.bytecode as `0x${string}`,
          args: ["Whole", "WHOLE", 0],
        }),
        pollingInterval: 20,
      });
      const whole = deployed.contractAddress!;
      const signer = await buyer();
      await reader.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: whole,
          abi: erc20Abi,
          functionName: "transfer",
          args: [signer.address as `0x${string}`, 5n],
        }),
        pollingInterval: 20,
      });
      const feeSigner = privateKeyToAccount(generatePrivateKey());
      const proxy = hostileNode(ocean.url, async (url, body) => {
        if (url.pathname !== "/api/services/initialize") return undefined;
        return {
          ...(body as Json),
          providerFee: await signProviderFee(feeSigner, {
            providerFeeToken: whole,
            providerFeeAmount: 2n,
            validUntil: Math.floor(Date.now() / 1000) + 600,
            data: { id: serviceId },
          }),
        };
      });
      proxies.push(proxy);
      const node = new OceanNode(proxy.url, { progress: false, retry: false });
      const order = await orderAsset(node, {
        did,
        serviceId,
        signer,
        rpcUrl: chain.rpcUrl,
        maxPrice: "1.5",
      }).catch((error) => error);
      assert.equal(
        await world.balance(whole, signer.address),
        5n,
        `2 WHOLE paid under a cap of 1.5 (${
          order instanceof Error ? order.message : `order ${order.txHash}`
        })`,
      );
      assert.equal(await world.balance(whole, feeSigner.address), 0n);
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
