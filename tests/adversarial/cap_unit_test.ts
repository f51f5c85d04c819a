/**
 * The unit of the cap is the chain's, never the node's: `maxPrice: "2"` caps
 * the token the datatoken's exchange prices it in, and a payment in any
 * other token (a provider fee in a token the node picked: one the wallet
 * holds, one with 6 or 0 decimals, the datatoken itself) is refused unless
 * the user caps that token by address. Per-token caps hold to the base unit
 * of each token's own decimals. The quote's totals show every token.
 * Checked on anvil: balances of the buyer and of the fee address, nonces,
 * `OrderStarted` events.
 */

import assert from "node:assert/strict";
import {
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
  parseUnits,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  OceanNode,
  orderAsset,
  quoteOrder,
  signerFromPrivateKey,
  TidepoolError,
} from "../../mod.ts";
import { signProviderFee } from "../../lib/sandbox/chain/provider_fee.ts";
import { hostileNode, moneyWorld, privateStateDir } from "./_money_world.ts";
import MockERC20Decimals from "@oceanprotocol/contracts/artifacts/contracts/utils/mock/MockERC20Decimals.sol/MockERC20Decimals.json" with {
  type: "json",
};

type Json = Record<string, unknown>;
type Hex = `0x${string}`;

Deno.test("maxPrice caps the price token; every other token needs its own cap", async (t) => {
  await privateStateDir();
  // The dataset costs 1 Ocean; the first other asset is free (dispenser).
  const world = await moneyWorld({
    extra: 1,
    pricing: (_, position) => position === 2 ? { type: "free" } : { type: "fixed", price: "1" },
  });
  const { ocean, chain, reader } = world;
  const { documentId: did, serviceId } = world.download;
  const free = [...chain.pricing].find(([, price]) => price.type === "free")![0];
  const freeDdo = ocean.ddos.find((d) => d.id === free)!;
  const freeService = freeDdo.services[0];
  const ocn = chain.contracts.oceanToken.toLowerCase();
  const proxies: { close(): Promise<void> }[] = [];

  // Tokens a stranger deploys and hands the buyers: 18, 6 and 0 decimals.
  const stranger = privateKeyToAccount(generatePrivateKey());
  await reader.request({
    method: "anvil_setBalance" as never,
    params: [stranger.address, toHex(parseEther("10"))] as never,
  });
  const viemChain = defineChain({
    id: chain.chainId,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const mined = async (hash: Hex) => {
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    assert.equal(receipt.status, "success");
    return receipt;
  };
  const send = (account = stranger) =>
    createWalletClient({ account, chain: viemChain, transport: http(chain.rpcUrl) });
  const deploy = async (symbol: string, decimals: number) => {
    const receipt = await mined(
      await send().deployContract({
        abi: MockERC20Decimals.abi,
        bytecode: MockERC20Decimals.bytecode as Hex,
        args: [symbol, symbol, decimals],
      }),
    );
    return { address: receipt.contractAddress!, decimals };
  };
  const weth = await deploy("WETH", 18);
  const usdc = await deploy("USDC", 6);
  const whole = await deploy("WHOLE", 0);

  /** A buyer with 10 Ocean and 5 whole units of each stranger token. */
  const buyer = async () => {
    const key = generatePrivateKey();
    const signer = signerFromPrivateKey(key);
    await chain.fund(signer.address, "10");
    for (const token of [weth, usdc, whole]) {
      await mined(
        await send().writeContract({
          address: token.address,
          abi: erc20Abi,
          functionName: "transfer",
          args: [signer.address as Hex, parseUnits("5", token.decimals)],
        }),
      );
    }
    return { signer, key };
  };
  /** A node whose `initialize` answers a fee of `units` of `token`, signed by its own key. */
  const charging = (token: string, units: bigint) => {
    const feeSigner = privateKeyToAccount(generatePrivateKey());
    const proxy = hostileNode(ocean.url, async (url, body) => {
      if (url.pathname !== "/api/services/initialize") return undefined;
      return {
        ...(body as Json),
        providerFee: await signProviderFee(feeSigner, {
          providerFeeToken: token as Hex,
          providerFeeAmount: units,
          validUntil: Math.floor(Date.now() / 1000) + 600,
          data: { id: "fee" },
        }),
      };
    });
    proxies.push(proxy);
    return { node: new OceanNode(proxy.url, { progress: false, retry: false }), feeSigner };
  };
  /** Orders; asserts a refusal naming `pattern`, no transaction and no token moved. */
  const refused = async (
    order: () => Promise<unknown>,
    address: string,
    pattern: RegExp,
    tokens: string[],
  ) => {
    const before = await Promise.all(tokens.map((token) => world.balance(token, address)));
    const sent = await world.sent(address);
    const error = await order().then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `the order was refused: ${error}`);
    assert.match(`${error.message} ${error.hint ?? ""}`, pattern);
    assert.equal(await world.sent(address), sent, "no transaction was sent");
    const after = await Promise.all(tokens.map((token) => world.balance(token, address)));
    assert.deepEqual(after, before, "no token left the wallet");
    assert.deepEqual(await world.ordersPaidBy(address), []);
  };
  const order = (
    node: OceanNode,
    signer: ReturnType<typeof signerFromPrivateKey>,
    maxPrice: unknown,
  ) =>
    orderAsset(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl, maxPrice: maxPrice as never });

  try {
    await t.step("the quote's totals show every token, the node's fee token too", async () => {
      const { signer } = await buyer();
      const { node } = charging(weth.address, parseEther("2"));
      const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
      const rows = quote.totals.objects() as { symbol: string; amount: string }[];
      assert.deepEqual(
        rows.filter((r) => r.symbol !== "native").map((r) => [r.symbol, r.amount]).sort(),
        [["OCEAN", "1.001"], ["WETH", "2"]],
      );
    });

    await t.step(
      "a fee in WETH with a per-token cap: above it refused, within it paid",
      async () => {
        const { signer } = await buyer();
        const { node, feeSigner } = charging(weth.address, parseEther("2"));
        await refused(
          () => order(node, signer, { [ocn]: "2", [weth.address]: "1.5" }),
          signer.address,
          /would take 2 WETH from the wallet, above maxPrice 1\.5/,
          [weth.address, ocn],
        );
        const [wethBefore, oceanBefore] = [
          await world.balance(weth.address, signer.address),
          await world.oceanOf(signer.address),
        ];
        const placed = await order(node, signer, { [ocn]: "2", [weth.address]: "2" });
        assert.equal(
          wethBefore - await world.balance(weth.address, signer.address),
          parseEther("2"),
        );
        assert.equal(await world.balance(weth.address, feeSigner.address), parseEther("2"));
        assert.equal(oceanBefore - await world.oceanOf(signer.address), parseEther("1.001"));
        const orders = await world.ordersPaidBy(signer.address);
        assert.deepEqual(orders.map((o) => o.tx), [placed.txHash]);
      },
    );

    await t.step(
      "a fee in a 6-decimal token: refused under a bare amount, capped to the unit",
      async () => {
        const { signer } = await buyer();
        const { node, feeSigner } = charging(usdc.address, 2_500_000n);
        await refused(
          () => order(node, signer, "2"),
          signer.address,
          /would pay 2\.5 USDC .*a token maxPrice does not cap/s,
          [usdc.address, ocn],
        );
        await refused(
          () => order(node, signer, { [ocn]: "2", [usdc.address]: "2.4999999" }),
          signer.address,
          /would take 2\.5 USDC from the wallet, above maxPrice 2\.4999999/,
          [usdc.address, ocn],
        );
        const before = await world.balance(usdc.address, signer.address);
        await order(node, signer, { [ocn]: "2", [usdc.address]: "2.5" });
        assert.equal(before - await world.balance(usdc.address, signer.address), 2_500_000n);
        assert.equal(await world.balance(usdc.address, feeSigner.address), 2_500_000n);
      },
    );

    await t.step(
      "a fee in a token without decimals: a fraction of a cap allows no more units",
      async () => {
        const { signer } = await buyer();
        const { node } = charging(whole.address, 3n);
        await refused(
          () => order(node, signer, "5"),
          signer.address,
          /a token maxPrice does not cap/,
          [whole.address, ocn],
        );
        await refused(
          () => order(node, signer, { [ocn]: "2", [whole.address]: "2.9" }),
          signer.address,
          /would take 3 WHOLE from the wallet, above maxPrice 2\.9/,
          [whole.address, ocn],
        );
        const before = await world.balance(whole.address, signer.address);
        await order(node, signer, { [ocn]: "2", [whole.address]: "3" });
        assert.equal(before - await world.balance(whole.address, signer.address), 3n);
      },
    );

    await t.step("a free datatoken buys nothing: a bare amount caps none of its fees", async () => {
      const { signer } = await buyer();
      const { node } = charging(chain.contracts.oceanToken, parseEther("0.5"));
      await refused(
        () =>
          orderAsset(node, {
            did: free,
            serviceId: freeService.id,
            signer,
            rpcUrl: chain.rpcUrl,
            maxPrice: "2",
          }),
        signer.address,
        /would pay 0\.5 OCEAN .*this order buys none/s,
        [ocn],
      );
    });

    await t.step(
      "a fee in the datatoken itself: uncapped refused, capped refused unfunded",
      async () => {
        const { signer, key } = await buyer();
        const datatoken = freeService.datatokenAddress as Hex;
        // The wallet already holds one datatoken, dispensed outside tidepool.
        await mined(
          await send(privateKeyToAccount(key)).writeContract({
            address: chain.contracts.dispenser,
            abi: parseAbi([
              "function dispense(address datatoken, uint256 amount, address destination)",
            ]),
            functionName: "dispense",
            args: [datatoken, parseEther("1"), signer.address as Hex],
          }),
        );
        assert.equal(await world.balance(datatoken, signer.address), parseEther("1"));
        const { node } = charging(datatoken, parseEther("1"));
        const orderFree = (maxPrice: unknown) =>
          orderAsset(node, {
            did: free,
            serviceId: freeService.id,
            signer,
            rpcUrl: chain.rpcUrl,
            maxPrice: maxPrice as never,
          });
        await refused(() => orderFree("5"), signer.address, /a token maxPrice does not cap/, [
          datatoken,
          ocn,
        ]);
        // Capped: the order would spend the held datatoken and a second one as the fee.
        await refused(
          () => orderFree({ [datatoken]: "5" }),
          signer.address,
          /insufficient balance: 1 .* held, 2 .* needed/,
          [datatoken, ocn],
        );
      },
    );
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});
