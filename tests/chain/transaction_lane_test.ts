/**
 * One transaction lane per wallet and chain, on a real chain: orders started
 * together from one wallet all go through, a payment is never left without
 * its order unsaid (both transactions named, and ordering again does not pay
 * again), and funds that cannot cover every order together are refused
 * before the payment that would fall short.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther, parseTransaction } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  deployOceanContracts,
  publishDatatoken,
  signProviderFee,
  startAnvil,
} from "../../lib/sandbox/chain/mod.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";
import { orderDatatoken } from "../../mod.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { rpcProxy } from "../adversarial/_money_world.ts";

Deno.test("one wallet's orders in line: parallel orders, a failure after paying, funds for all", async (t) => {
  const chain = await startAnvil();
  try {
    const contracts = await deployOceanContracts(chain);
    const { publicClient, walletClient } = chainClients(chain);
    const paid = await publishDatatoken(chain, contracts, {
      name: "Winds",
      symbol: "WIND",
      pricing: { type: "fixed", price: "1" },
    });
    const free = await publishDatatoken(chain, contracts, {
      name: "Tides",
      symbol: "TIDE",
      pricing: { type: "free" },
    });
    const node = privateKeyToAccount(generatePrivateKey());
    const setNative = (who: `0x${string}`, wei: bigint) =>
      publicClient.request({
        method: "anvil_setBalance" as never,
        params: [who, `0x${wei.toString(16)}`] as never,
      });
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
    const fee = (datatoken: string) =>
      signProviderFee(node, {
        providerFeeToken: contracts.oceanToken,
        providerFeeAmount: 0n,
        validUntil: Math.floor(Date.now() / 1000) + 600,
        data: { dt: datatoken, id: "svc-0" },
      });
    const newBuyer = async (ocean: string) => {
      const buyer = privateKeyToAccount(generatePrivateKey());
      await setNative(buyer.address, parseEther("10"));
      if (ocean !== "0") await fund(buyer.address, ocean);
      return buyer;
    };
    const sentBy = (address: `0x${string}`) => publicClient.getTransactionCount({ address });

    await t.step("5 orders started together from one wallet all succeed", async () => {
      const buyer = await newBuyer("10");
      const datatokens = [paid, paid, free, paid, free].map((d) => d.datatokenAddress);
      const orders = await Promise.all(datatokens.map(async (datatoken) =>
        orderDatatoken({
          rpcUrl: chain.rpcUrl,
          account: buyer,
          serviceIndex: 0,
          datatoken,
          providerFee: await fee(datatoken),
        })
      ));
      assert.equal(new Set(orders.map((order) => order.txHash)).size, 5);
      assert.deepEqual(orders.map((order) => order.source), [
        "exchange",
        "exchange",
        "dispenser",
        "exchange",
        "dispenser",
      ]);
      for (const order of orders) {
        const receipt = await publicClient.getTransactionReceipt({ hash: order.txHash });
        assert.equal(receipt.status, "success");
      }
    });

    await t.step(
      "an order failing after its payment names the payment, and ordering again does not pay again",
      async () => {
        const buyer = await newBuyer("5");
        const good = await fee(paid.datatokenAddress);
        // The chain refuses the startOrder after buyDT (a fee whose signature is not the
        // provider's is now refused before anything is sent: tests/adversarial/plan_whole_test.ts).
        const refusing = rpcProxy(chain.rpcUrl, {
          before: (call) => {
            if (call.method !== "eth_sendRawTransaction") return Promise.resolve(undefined);
            const tx = parseTransaction(call.params[0] as `0x${string}`);
            const startOrder = tx.to?.toLowerCase() === paid.datatokenAddress.toLowerCase() &&
              !tx.data?.startsWith("0x095ea7b3");
            return Promise.resolve(
              startOrder ? { error: { code: -32000, message: "Invalid provider fee" } } : undefined,
            );
          },
        });
        const before = await publicClient.readContract({
          address: contracts.oceanToken,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [buyer.address],
        });
        const error = await orderDatatoken({
          rpcUrl: refusing.url,
          account: buyer,
          serviceIndex: 0,
          datatoken: paid.datatokenAddress,
          providerFee: good,
        }).then(() => undefined, (error) => error).finally(() => refusing.close());
        assert.ok(error instanceof TidepoolError, String(error));
        assert.match(error.message, /the payment went through but the order failed/);
        // The payment's transactions by hash; the order, which the chain refused, by name.
        const details = String(error.details);
        assert.match(
          details,
          /^paid: approve 0x[0-9a-f]{64}, buyDT 0x[0-9a-f]{64}; then: startOrder \(refused before it was mined\)$/,
        );
        assert.match(error.message, /startOrder|revert|signature|fee/i);
        const bought = details.match(/buyDT (0x[0-9a-f]{64})/)![1] as `0x${string}`;
        assert.equal(
          (await publicClient.getTransactionReceipt({ hash: bought })).status,
          "success",
        );
        assert.match(String(error.hint), /order again .* without paying again/);

        const again = await orderDatatoken({
          rpcUrl: chain.rpcUrl,
          account: buyer,
          serviceIndex: 0,
          datatoken: paid.datatokenAddress,
          providerFee: good,
        });
        assert.equal(again.source, "held");
        assert.equal(again.pricePaid, "0");
        const after = await publicClient.readContract({
          address: contracts.oceanToken,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [buyer.address],
        });
        assert.equal(before - after, parseEther("1.001"), "paid once, for the first attempt");
      },
    );

    await t.step(
      "funds for one order of two started together: the second is refused before paying",
      async () => {
        const buyer = await newBuyer("1.5");
        const results = await Promise.allSettled([0, 1].map(async () =>
          orderDatatoken({
            rpcUrl: chain.rpcUrl,
            account: buyer,
            serviceIndex: 0,
            datatoken: paid.datatokenAddress,
            providerFee: await fee(paid.datatokenAddress),
          })
        ));
        const [done, refused] = results[0].status === "fulfilled"
          ? results
          : [...results].reverse();
        assert.equal(done.status, "fulfilled");
        assert.equal(refused.status, "rejected");
        const reason = (refused as PromiseRejectedResult).reason;
        assert.ok(reason instanceof TidepoolError, String(reason));
        assert.match(
          reason.message,
          /insufficient balance: 0\.499 OCEAN held, 1\.001 OCEAN needed/,
        );
        assert.match(String(reason.hint), /nothing was sent/);
      },
    );

    await t.step("a maxPrice given as a number is compared as the amount it writes", async () => {
      const buyer = await newBuyer("5");
      const count = await sentBy(buyer.address);
      await assert.rejects(
        orderDatatoken({
          rpcUrl: chain.rpcUrl,
          account: buyer,
          serviceIndex: 0,
          datatoken: paid.datatokenAddress,
          maxPrice: 0.5 as never,
          providerFee: await fee(paid.datatokenAddress),
        }),
        /it would take 1\.001 OCEAN from the wallet, above maxPrice 0\.5/,
      );
      assert.equal(await sentBy(buyer.address), count, "nothing was sent");
    });

    await t.step("too little of the native token for gas is refused with the amounts", async () => {
      const buyer = await newBuyer("5");
      await setNative(buyer.address, 1000n);
      const count = await sentBy(buyer.address);
      await assert.rejects(
        orderDatatoken({
          rpcUrl: chain.rpcUrl,
          account: buyer,
          serviceIndex: 0,
          datatoken: paid.datatokenAddress,
          providerFee: await fee(paid.datatokenAddress),
        }),
        /not enough of the chain's native token for gas: 0\.000000000000001 held, up to .* needed/,
      );
      assert.equal(await sentBy(buyer.address), count, "nothing was sent");
    });
  } finally {
    await chain.close();
  }
});
