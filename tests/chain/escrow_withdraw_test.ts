/**
 * Withdrawing from the Escrow what no job holds: the balance change read
 * from the chain with viem equals the quote; more than is available, a
 * fired signal and replay are refused with nothing sent (the payer's
 * transaction count unchanged).
 */

import assert from "node:assert/strict";
import { erc20Abi, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { deployOceanContracts, startAnvil } from "../../lib/sandbox/chain/mod.ts";
import { quoteEscrowWithdraw, withdrawEscrow } from "../../lib/ocean/mod.ts";
import { ESCROW_ABI, escrowWithLock } from "./_escrow_setup.ts";

async function setup() {
  const chain = await startAnvil();
  const contracts = await deployOceanContracts(chain);
  const held = await escrowWithLock(chain, contracts);
  const account = privateKeyToAccount(held.payerKey);
  const options = {
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    escrow: held.escrow,
    token: held.ocean,
    account,
  };
  const balance = () =>
    held.publicClient.readContract({
      address: held.ocean,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account.address],
    });
  const sent = () => held.publicClient.getTransactionCount({ address: account.address });
  const funds = () =>
    held.publicClient.readContract({
      address: held.escrow,
      abi: ESCROW_ABI,
      functionName: "getUserFunds",
      args: [account.address, held.ocean],
    });
  return { chain, options, balance, sent, funds };
}

Deno.test("withdrawEscrow takes back what is not locked: the chain's balance change equals the quote", async () => {
  const { chain, options, balance, funds } = await setup();
  try {
    const quote = await quoteEscrowWithdraw(options);
    assert.deepEqual([quote.amount, quote.available, quote.locked], ["7.5", "7.5", "2.5"]);
    const before = await balance();
    const done = await withdrawEscrow(options);
    assert.equal(done.amount, quote.amount);
    assert.equal(done.availableAfter, "0");
    assert.equal((await balance()) - before, parseEther(quote.amount));
    const after = await funds();
    assert.deepEqual([after.available, after.locked], [0n, parseEther("2.5")], "the lock stays");
  } finally {
    await chain.close();
  }
});

Deno.test("withdrawEscrow refuses more than available, nothing left, a fired signal, replay: nothing sent", async () => {
  const { chain, options, balance, sent } = await setup();
  try {
    const count = await sent();
    const before = await balance();
    await assert.rejects(
      () => withdrawEscrow({ ...options, amount: "8" }),
      /only 7\.5 is available \(2\.5 locked by jobs\)/,
    );
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(
      () => withdrawEscrow({ ...options, signal: stop.signal }),
      /stopped by the signal before anything was sent/,
    );
    Deno.env.set("TIDEPOOL_CACHE_MODE", "replay");
    try {
      await assert.rejects(() => withdrawEscrow(options), /in replay mode/);
    } finally {
      Deno.env.delete("TIDEPOOL_CACHE_MODE");
    }
    assert.equal(await sent(), count, "no transaction was sent");
    assert.equal(await balance(), before);
    const part = await withdrawEscrow({ ...options, amount: "2" });
    assert.deepEqual([part.amount, part.availableAfter], ["2", "5.5"]);
    assert.equal((await balance()) - before, parseEther("2"));
    await withdrawEscrow(options);
    await assert.rejects(() => withdrawEscrow(options), /nothing to take back \(0 available/);
  } finally {
    await chain.close();
  }
});
