import assert from "node:assert/strict";
import { erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  deployOceanContracts,
  publishDatatoken,
  signProviderFee,
  startAnvil,
} from "../../lib/sandbox/chain/mod.ts";
import { validateOrder } from "../../lib/sandbox/chain/validate_order.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
// Through the root module, as a user imports it: viem loads inside the first order.
import { orderDatatoken } from "../../mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

Deno.test("orders on a real chain: free and paid, checked locally first, validated like ocean-node", async (t) => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const { publicClient, walletClient } = chainClients(chain);
    const free = await publishDatatoken(chain, contracts, {
      name: "Tides",
      symbol: "TIDE",
      pricing: { type: "free" },
    });
    const paid = await publishDatatoken(chain, contracts, {
      name: "Winds",
      symbol: "WIND",
      pricing: { type: "fixed", price: "2" },
    });
    const nodeKey = generatePrivateKey();
    const node = privateKeyToAccount(nodeKey);
    const buyerKey = generatePrivateKey();
    const buyer = privateKeyToAccount(buyerKey);
    const other = privateKeyToAccount(generatePrivateKey());
    for (const who of [buyer.address, other.address]) {
      await publicClient.request({
        method: "anvil_setBalance" as never,
        params: [who, "0x56BC75E2D63100000"] as never,
      });
    }
    const fund = async (to: `0x${string}`, amount: string) => {
      const hash = await walletClient.writeContract({
        address: contracts.oceanToken,
        abi: erc20Abi,
        functionName: "transfer",
        args: [to, parseEther(amount)],
        account: contracts.owner,
        chain: walletClient.chain,
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    };
    const fee = (datatoken: string, validUntil = Math.floor(Date.now() / 1000) + 600) =>
      signProviderFee(node, {
        providerFeeToken: contracts.oceanToken,
        providerFeeAmount: 0n,
        validUntil,
        data: { dt: datatoken, id: "svc-0" },
      });
    const base = { rpcUrl: chain.rpcUrl, account: buyer, serviceIndex: 0 };
    const nonce = () => publicClient.getTransactionCount({ address: buyer.address });
    const messages: string[] = [];
    const refused = async (order: () => Promise<unknown>, pattern: RegExp) => {
      const before = await nonce();
      await assert.rejects(order(), (error: unknown) => {
        assert.ok(error instanceof TidepoolError);
        assert.match(error.message, pattern);
        messages.push(error.message, String(error.stack));
        return true;
      });
      assert.equal(await nonce(), before, "nothing was sent");
    };

    await t.step("a free order through the dispenser is valid for its consumer only", async () => {
      const order = await orderDatatoken({
        ...base,
        datatoken: free.datatokenAddress,
        providerFee: await fee(free.datatokenAddress),
      });
      assert.equal(order.source, "dispenser");
      assert.equal(order.pricePaid, "0");
      const check = { datatoken: free.datatokenAddress, serviceIndex: 0, timeout: 3600 };
      const ok = await validateOrder(publicClient, {
        ...check,
        txId: order.txHash,
        consumer: buyer.address,
      });
      assert.equal(ok.valid, true);
      const stolen = await validateOrder(publicClient, {
        ...check,
        txId: order.txHash,
        consumer: other.address,
      });
      assert.deepEqual(stolen, {
        valid: false,
        reason: "Invalid consumer: the order was started for another address",
      });
      const wrongService = await validateOrder(publicClient, {
        ...check,
        serviceIndex: 1,
        txId: order.txHash,
        consumer: buyer.address,
      });
      assert.equal(wrongService.valid, false);
      const later = await validateOrder(publicClient, {
        ...check,
        txId: order.txHash,
        consumer: buyer.address,
        now: Math.floor(Date.now() / 1000) + 7200,
      });
      assert.deepEqual(later, { valid: false, reason: "The order has expired" });
    });

    await t.step("an insufficient balance is refused before sending", async () => {
      await fund(buyer.address, "1");
      await refused(
        async () =>
          orderDatatoken({
            ...base,
            datatoken: paid.datatokenAddress,
            providerFee: await fee(paid.datatokenAddress),
          }),
        /insufficient balance: 1 OCEAN held, 2\.002 OCEAN needed/,
      );
    });

    await t.step("a price above maxPrice is refused before sending", async () => {
      await fund(buyer.address, "9");
      await refused(
        async () =>
          orderDatatoken({
            ...base,
            datatoken: paid.datatokenAddress,
            maxPrice: "1.5",
            providerFee: await fee(paid.datatokenAddress),
          }),
        /it would take 2\.002 OCEAN from the wallet, above maxPrice 1\.5/,
      );
    });

    await t.step("an expired provider fee is refused before sending", async () => {
      await refused(
        async () =>
          orderDatatoken({
            ...base,
            datatoken: paid.datatokenAddress,
            providerFee: await fee(paid.datatokenAddress, Math.floor(Date.now() / 1000) - 10),
          }),
        /provider fee has expired/,
      );
    });

    await t.step("a paid order buys exactly one datatoken through the exchange", async () => {
      const ocean = () =>
        publicClient.readContract({
          address: contracts.oceanToken,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [buyer.address],
        });
      const before = await ocean();
      const order = await orderDatatoken({
        ...base,
        datatoken: paid.datatokenAddress,
        maxPrice: "2.002",
        providerFee: await fee(paid.datatokenAddress),
      });
      assert.equal(order.source, "exchange");
      // Two Ocean plus the community fee of 0.1% the exchange charges.
      assert.equal(order.pricePaid, "2.002");
      assert.equal(before - (await ocean()), parseEther("2.002"));
      const allowance = await publicClient.readContract({
        address: contracts.oceanToken,
        abi: erc20Abi,
        functionName: "allowance",
        args: [buyer.address, contracts.fixedRateExchange],
      });
      assert.equal(allowance, 0n, "approved only what was spent");
      const verdict = await validateOrder(publicClient, {
        datatoken: paid.datatokenAddress,
        serviceIndex: 0,
        timeout: 0,
        txId: order.txHash,
        consumer: buyer.address,
      });
      assert.equal(verdict.valid, true);
    });

    await t.step("no key or signature appears in any error", () => {
      const text = messages.join("\n").toLowerCase();
      assert.ok(messages.length >= 3);
      for (const secret of [buyerKey, nodeKey]) assert.ok(!text.includes(secret.slice(2)));
    });
  } finally {
    await chain.close();
  }
});
