/**
 * The unit of the cap is the node's to choose: `maxPrice` is one number
 * applied to each token on its own, and the provider fee's token is
 * whatever the node signs. A user who quoted an asset priced in Ocean and
 * orders it with `maxPrice: "2"` meant two Ocean; a node that answers the
 * order's `initialize` with a fee of 2 of another token the wallet holds
 * (WETH, worth a thousand times more) is within "2 per token" and is paid.
 * Checked on anvil: the wallet's WETH balance and its orders.
 */

import assert from "node:assert/strict";
import { createWalletClient, defineChain, erc20Abi, http, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, orderAsset, quoteOrder, signerFromPrivateKey } from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";
import MockERC20Decimals from "@oceanprotocol/contracts/artifacts/contracts/utils/mock/MockERC20Decimals.sol/MockERC20Decimals.json" with {
  type: "json",
};

type Json = Record<string, unknown>;

Deno.test("a node cannot move the cap to a token the user did not price in", async () => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { ocean, chain, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const proxies: { close(): Promise<void> }[] = [];
  try {
    // Another token the buyer holds, deployed by a stranger.
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
        args: ["Wrapped Ether", "WETH", 18],
      }),
      pollingInterval: 20,
    });
    const weth = deployed.contractAddress!;
    const signer = signerFromPrivateKey(generatePrivateKey());
    await chain.fund(signer.address, "10");
    await reader.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: weth,
        abi: erc20Abi,
        functionName: "transfer",
        args: [signer.address as `0x${string}`, parseEther("5")],
      }),
      pollingInterval: 20,
    });

    // The user looks at a quote: 1.001 Ocean, all in Ocean.
    const honest = new OceanNode(ocean.url, { progress: false, retry: false });
    const quote = await quoteOrder(honest, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
    const symbols = (quote.totals.objects() as { symbol: string }[]).map((row) => row.symbol);
    assert.deepEqual(symbols.filter((s) => s !== "native"), ["OCEAN"]);

    // ... and orders with a cap of 2, through a node that now charges its fee in WETH.
    const feeSigner = privateKeyToAccount(generatePrivateKey());
    const proxy = hostileNode(ocean.url, async (url, body) => {
      if (url.pathname !== "/api/services/initialize") return undefined;
      return {
        ...(body as Json),
        providerFee: await signProviderFee(feeSigner, {
          providerFeeToken: weth,
          providerFeeAmount: parseEther("2"),
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
      maxPrice: "2",
    }).catch((error) => error);
    assert.equal(
      await world.balance(weth, signer.address),
      parseEther("5"),
      `WETH left the wallet under maxPrice "2" of an asset priced in Ocean (${
        order instanceof Error
          ? order.message
          : `paid ${JSON.stringify(order.paid, (_, v) => typeof v === "bigint" ? String(v) : v)}`
      })`,
    );
    assert.equal(await world.balance(weth, feeSigner.address), 0n);
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
