/**
 * A market fee of nothing at the quote is no licence to take one later.
 * `startOrder` takes the publishing market's fee as the datatoken says it
 * when it runs, bounded only by the wallet's allowance to the datatoken.
 * The datatoken's allowance was set to exactly the quoted fees only in the
 * tokens a fee was quoted in: with no fee quoted, the plan sent no
 * approval, and a wallet that already allowed the datatoken 5 Ocean
 * (another program's approval) paid a fee the publisher set to 3 Ocean
 * between the lane's last check and `startOrder`, with no maxPrice at all
 * (where only the listed price may be paid) and past a cap of 2. The
 * class: an allowance the plan did not set, in a token it pays with.
 * Members: no cap, a cap of "2", a per-token cap. Checked on anvil with
 * viem: the buyer's and the market's Ocean, the datatoken's allowance.
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type MaxPrice, orderAsset } from "../../mod.ts";
import {
  changeBeforeFill,
  downloadOrder,
  fundedBuyer,
  moneyWorld,
  oceanAllowance,
  privateStateDir,
  setMarketFee,
  walletOf,
} from "./_money_world.ts";

Deno.test("a market fee raised from nothing before startOrder is not taken from an allowance", async (t) => {
  await privateStateDir();
  const world = await moneyWorld({ extra: 0 });
  const { did, serviceId, datatoken, oceanToken, node } = downloadOrder(world);
  const caps: [string, MaxPrice | undefined][] = [
    ["no cap", undefined],
    ['a cap of "2"', "2"],
    ["a per-token cap", { [oceanToken]: "2" }],
  ];
  try {
    for (const [name, maxPrice] of caps) {
      await t.step(name, async () => {
        const market = privateKeyToAccount(generatePrivateKey()).address;
        // The first member starts from the sandbox's datatoken: no fee, no fee token.
        if (name !== "no cap") await setMarketFee(world, datatoken, market, "0");
        const key = generatePrivateKey();
        const signer = await fundedBuyer(world, "10", key);
        // Another program's approval: the wallet allows the datatoken 5 Ocean.
        const hash = await walletOf(world, key).writeContract({
          address: oceanToken,
          abi: erc20Abi,
          functionName: "approve",
          args: [datatoken, parseEther("5")],
        });
        await world.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        // The publisher front-runs startOrder: the fee goes from nothing to 3 Ocean.
        const proxy = changeBeforeFill(
          world,
          datatoken,
          () => setMarketFee(world, datatoken, market, "3"),
        );
        try {
          const before = await world.oceanOf(signer.address);
          const error = await orderAsset(node, {
            did,
            serviceId,
            signer,
            rpcUrl: proxy.url,
            maxPrice,
          }).then(() => undefined, (e) => e);
          assert.ok(proxy.changed(), "the fee was raised before startOrder");
          const spent = before - await world.oceanOf(signer.address);
          assert.equal(
            await world.oceanOf(market),
            0n,
            `the raised fee was paid (${error?.message ?? "ordered"})`,
          );
          assert.ok(spent <= parseEther("1.001"), `${spent} base units left the wallet`);
          assert.ok(error instanceof Error, "the order with the raised fee failed");
          assert.equal(
            await oceanAllowance(world, signer.address, datatoken),
            parseEther("5"),
            "the allowance given back",
          );
        } finally {
          await proxy.close();
        }
      });
    }
    await t.step(
      "a fee of nothing in an address that is no token does not stop the order",
      async () => {
        // startOrder skips a fee of nothing whatever its token: guarding it must not refuse.
        const market = privateKeyToAccount(generatePrivateKey()).address;
        const notAToken = privateKeyToAccount(generatePrivateKey()).address;
        await setMarketFee(world, datatoken, market, "0", notAToken);
        const signer = await fundedBuyer(world, "10");
        await orderAsset(node, { did, serviceId, signer, rpcUrl: world.chain.rpcUrl });
        assert.equal((await world.ordersPaidBy(signer.address)).length, 1, "the order was placed");
      },
    );
  } finally {
    await world.close();
  }
});
