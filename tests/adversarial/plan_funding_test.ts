/**
 * The whole plan is funded before its first transaction: a wallet with the
 * chain's native token for one order's gas but not two is refused before
 * the first order of a two-order compute start, naming the amounts; so is
 * one with the tokens for one order's price but not both. Checked on anvil:
 * nothing sent, nothing spent.
 */

import assert from "node:assert/strict";
import { parseEther, toHex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { moneyWorld } from "./_money_world.ts";

Deno.test("a two-order compute start is refused before its first transaction when the plan is unfunded", async (t) => {
  const world = await moneyWorld();
  const { ocean, chain, example } = world;
  const node = new OceanNode(ocean.url, { progress: false, retry: false });
  const start = (signer: ReturnType<typeof signerFromPrivateKey>) =>
    node.startCompute({
      signer,
      environment: example.environment,
      algorithm: example.algorithm,
      datasets: [example.dataset],
      rpcUrl: chain.rpcUrl,
      maxJobDuration: 60,
    }).then(() => undefined, (e) => e);
  const refusedUntouched = async (address: string, error: unknown, pattern: RegExp) => {
    assert.equal(await world.sent(address), 0, "no transaction was sent");
    assert.equal((await world.ordersPaidBy(address)).length, 0);
    assert.ok(error instanceof TidepoolError, `refused: ${error}`);
    assert.match(error.message, pattern);
    assert.match(String(error.hint), /nothing was sent/);
  };
  try {
    await t.step("native gas for one order of two", async () => {
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "10");
      // Room for about a million gas at today's price: one order's three transactions, not six.
      const gasPrice = await world.reader.getGasPrice();
      await world.reader.request({
        method: "anvil_setBalance" as never,
        params: [signer.address, toHex(gasPrice * 1_000_000n)] as never,
      });
      await refusedUntouched(
        signer.address,
        await start(signer),
        /not enough of the chain's native token for gas: .* needed for 6 transactions .* 25% margin/,
      );
      assert.equal(await world.oceanOf(signer.address), parseEther("10"));
    });

    await t.step("Ocean for one order's price of two", async () => {
      const signer = signerFromPrivateKey(generatePrivateKey());
      await chain.fund(signer.address, "1.5");
      await refusedUntouched(
        signer.address,
        await start(signer),
        /insufficient balance: 1\.5 OCEAN held, 2\.002 OCEAN needed/,
      );
    });
  } finally {
    await world.close();
  }
});
