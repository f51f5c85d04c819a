/**
 * A paid job on a priced sandbox environment, paid through the real Escrow
 * from tidepool's own quote: the quote shows the deposit, the
 * authorization and the node's lock within the one cap; the start deposits
 * only what is needed, authorizes, starts, and sets the authorization and
 * the allowance back; the job runs to its results; the wallet's balance
 * change on chain equals the quote's total. Every figure is read from the
 * chain with viem.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { escrowWorld, payer } from "../adversarial/_escrow_world.ts";

Deno.test("a paid job on a priced environment: quote, deposit, lock, results; the balance change is the quote", async () => {
  const world = await escrowWorld();
  const { ocean, chain } = world;
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(ocean.url, { progress: false, retry: false });
    const { signer, request } = await payer(world);
    const ocean0 = await world.oceanOf(signer.address);
    const token = chain.contracts.oceanToken.toLowerCase();
    const quote = await node.quoteCompute(request);
    const price = parseEther("0.75");
    assert.equal(quote.escrow?.amount, price, "cpu 0.5 + ram 0.25 for one minute");
    assert.equal(quote.escrow?.deposit, price, "nothing free in the escrow yet");
    assert.equal(quote.escrow?.payee.toLowerCase(), chain.nodeAddress.toLowerCase());
    assert.deepEqual(quote.escrow?.authorize, {
      maxLockedAmount: price,
      maxLockSeconds: 660n,
      maxLockCounts: 1n,
    });
    const actions = (quote.transactions.objects() as Record<string, unknown>[]).map((r) =>
      `${r.action} ${r.part} ${r.amount}`
    );
    assert.deepEqual(actions.filter((a) => !a.includes("startOrder") && !a.includes("dispense")), [
      "approve allowance 0.75",
      "deposit escrow deposit 0.75",
      "authorize authorization 0.75",
      "lock (by the node) escrow lock 0.75",
      "authorize authorization 0",
    ]);
    const total = (quote.totals.objects() as Record<string, unknown>[]).find((r) =>
      r.token === token
    );
    assert.equal(total?.amount, "0.75");
    assert.equal(await world.sent(signer.address), 0, "quoting sends nothing");

    const started = await node.startCompute({ ...request, quote });
    const [job] = started.jobs;
    assert.ok(started.escrow?.depositTx && started.escrow.authorizeTx && started.escrow.restoreTx);
    const locks = await world.locks(signer.address);
    // The sandbox claims when it first sees the job end; it may have ended already.
    assert.ok(locks.length <= 1 && (locks[0]?.amount ?? price) === price, "one lock of the price");
    assert.deepEqual(await world.authorization(signer.address), [
      0n,
      locks.length ? price : 0n,
      0n,
      0n,
      BigInt(locks.length),
    ], "set back: none allowed");
    assert.equal(await world.allowance(signer.address), 0n, "the Escrow may take nothing more");

    const done = await node.waitForJob(signer.address, job.jobId, {
      pollMs: 10,
      timeoutMs: 10_000,
    });
    const saved = await node.downloadResults(done, { signer, dir, types: ["output"] });
    assert.equal(saved.numRows(), 1, "the job's output");
    const after = await world.funds(signer.address);
    assert.deepEqual([after.available, after.locked], [0n, 0n], "claimed by the node");
    assert.equal(ocean0 - (await world.oceanOf(signer.address)), parseEther(String(total?.amount)));
    assert.deepEqual(await world.locks(signer.address), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await world.close();
  }
});
