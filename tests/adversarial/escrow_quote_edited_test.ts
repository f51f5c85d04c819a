/**
 * A quote edited before it is given to `startCompute`, with a node that
 * agrees with the edit at the start: another escrow, a longer lock, a
 * smaller deposit, no escrow part at all; and a node that adds a payment of
 * its own to each asset's terms (the payer's approvals, deposit and
 * authorizations then all go to the Escrow, read from the transactions
 * sent). The start asks the node's terms again and
 * checks them against the caller's trust and bounds, not the quote's word;
 * nothing reaches a contract of the node's, and no lock outlasts
 * `maxLockSeconds`. Every outcome is read from anvil with viem.
 */

import assert from "node:assert/strict";
import { decodeFunctionData, type Hex, parseAbi, parseEther, parseTransaction } from "viem";
import { OceanNode, TidepoolError } from "../../mod.ts";
import type { ComputeQuote } from "../../lib/ocean/compute/_paid_compute_types.ts";
import { hostileNode, rpcProxy } from "./_money_world.ts";
import { deployThief, type EscrowWorld, escrowWorld, payer } from "./_escrow_world.ts";

type Json = Record<string, unknown>;
const THIRTY_DAYS = 30 * 24 * 3600;

/** Nothing of the payer's moved, and nothing reached the thief. */
async function untouched(world: EscrowWorld, address: string, thief: string) {
  assert.equal(await world.sent(address), 0, "no transaction was sent");
  assert.equal(await world.oceanOf(address), parseEther("10"), "no Ocean left the wallet");
  assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "no escrow funds");
  assert.equal(await world.authorization(address), null, "no authorization");
  assert.equal(await world.balance(world.chain.contracts.oceanToken, thief), 0n, "thief: 0");
}

Deno.test("an edited quote the node agrees with at the start", async (t) => {
  const world = await escrowWorld();
  const thief = await deployThief(world);
  // From the second initializeCompute on (the start's), the node says what `now` says.
  let asked = 0;
  let now: (payment: Json) => Json = (p) => p;
  const proxy = hostileNode(world.ocean.url, (url, body) => {
    if (url.pathname !== "/api/services/initializeCompute" || ++asked === 1) return undefined;
    const terms = body as { payment: Json };
    return { ...terms, payment: now(terms.payment) };
  });
  const node = new OceanNode(proxy.url, { progress: false, retry: false });
  const edits: [string, (q: ComputeQuote) => ComputeQuote, (p: Json) => Json, RegExp][] = [
    [
      "another escrow",
      (q) => ({ ...q, escrow: { ...q.escrow!, escrow: thief } }),
      (p) => ({ ...p, escrowAddress: thief }),
      /not the Escrow contract trusted/,
    ],
    [
      "a 30-day lock",
      (q) => ({ ...q, escrow: { ...q.escrow!, lockSeconds: THIRTY_DAYS } }),
      (p) => ({ ...p, minLockSeconds: THIRTY_DAYS }),
      /longer than maxLockSeconds \(604800\)/,
    ],
    [
      "no deposit",
      (q) => ({ ...q, escrow: { ...q.escrow!, deposit: 0n, available: q.escrow!.amount } }),
      (p) => p,
      /now needs a deposit of 0.75 OCEAN, the quote said 0/,
    ],
  ];
  try {
    for (const [what, edit, agree, pattern] of edits) {
      await t.step(what, async () => {
        const { address, request } = await payer(world);
        asked = 0;
        now = agree;
        const quote = await node.quoteCompute(request);
        assert.ok(quote.escrow);
        const error = await node.startCompute({ ...request, quote: edit(quote) }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.match(error.message, pattern);
        await untouched(world, address, thief);
      });
    }

    await t.step("no escrow part: nothing deposited, authorized or locked", async () => {
      const { address, request } = await payer(world);
      asked = 0;
      now = (p) => p;
      const quote = await node.quoteCompute(request);
      const { escrow: _, ...unescrowed } = quote;
      await assert.rejects(
        node.startCompute({ ...request, quote: unescrowed as ComputeQuote }),
        TidepoolError,
      );
      // The node's lock has no authorization to lock under: no job, nothing held.
      assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n });
      assert.equal(await world.authorization(address), null, "no authorization");
      assert.deepEqual(await world.locks(address), [], "nothing locked");
      assert.equal(await world.allowance(address), 0n, "no allowance to the Escrow");
    });

    await t.step(
      "no escrow part, under a standing authorization: refused before any order",
      async () => {
        const { key, address, request } = await payer(world);
        asked = 0;
        now = (p) => p;
        const quote = await node.quoteCompute(request);
        const price = quote.escrow!.amount;
        // The payer's own standing authorization of the node, and 1.5 Ocean free in the escrow.
        const escrow = world.chain.contracts.escrow;
        await world.payerSends(key, "approve", [escrow, 2n * price]);
        await world.payerSends(key, "deposit", [world.chain.contracts.oceanToken, 2n * price]);
        await world.payerSends(key, "authorize", [
          world.chain.contracts.oceanToken,
          quote.escrow!.payee,
          2n * price,
          BigInt(quote.escrow!.lockSeconds),
          5n,
        ]);
        const sent = await world.sent(address);
        const { escrow: _, ...unescrowed } = quote;
        const error = await node.startCompute({ ...request, quote: unescrowed as ComputeQuote })
          .then(() => undefined, (e) => e);
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.match(error.message, /charges the job through the escrow/);
        assert.equal(await world.sent(address), sent, "no order or escrow transaction");
        assert.deepEqual(await world.locks(address), [], "nothing locked");
        assert.deepEqual(await world.funds(address), { available: 2n * price, locked: 0n });
      },
    );
  } finally {
    await proxy.close();
    await world.close();
  }
});

/** What the payer calls on the token and the Escrow. */
const CALLS = parseAbi([
  "function approve(address spender, uint256 amount)",
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
]);

Deno.test("a payment the node adds to each asset's terms is not paid", async () => {
  const world = await escrowWorld();
  const thief = await deployThief(world);
  const proxy = hostileNode(world.ocean.url, (url, body) => {
    if (url.pathname !== "/api/services/initializeCompute") return undefined;
    const terms = body as { payment: Json; algorithm: Json; datasets: Json[] };
    const own = { ...terms.payment, escrowAddress: thief, amount: String(parseEther("5")) };
    return {
      ...terms,
      algorithm: { ...terms.algorithm, payment: own },
      datasets: terms.datasets.map((d) => ({ ...d, payment: own })),
    };
  });
  try {
    const node = new OceanNode(proxy.url, { progress: false, retry: false });
    const { address, request } = await payer(world);
    // Every Ocean approval and every escrow call the payer signs, as sent.
    const { escrow, oceanToken } = world.chain.contracts;
    const seen: string[] = [];
    const rpc = rpcProxy(world.chain.rpcUrl, {
      after: (call) => {
        if (call.method !== "eth_sendRawTransaction") return;
        const tx = parseTransaction(call.params[0] as Hex);
        const to = tx.to?.toLowerCase();
        if (to !== oceanToken.toLowerCase() && to !== escrow.toLowerCase()) return;
        const { functionName, args } = decodeFunctionData({ abi: CALLS, data: tx.data! });
        const target = functionName === "approve" ? args[0] : to;
        seen.push(`${functionName} ${String(target).toLowerCase()}`);
      },
    });
    let quote;
    try {
      quote = await node.quoteCompute({ ...request, rpcUrl: rpc.url });
      await node.startCompute({ ...request, rpcUrl: rpc.url, quote });
    } finally {
      await rpc.close();
    }
    const price = quote.escrow!.amount;
    assert.equal(price, parseEther("0.75"));
    const e = escrow.toLowerCase();
    assert.deepEqual(
      seen,
      [`approve ${e}`, `deposit ${e}`, `authorize ${e}`, `authorize ${e}`],
      "approved to, deposited into and authorized at the Escrow only",
    );
    assert.equal(await world.allowance(address), 0n, "the approval is set back");
    assert.deepEqual(await world.funds(address), { available: 0n, locked: price });
    assert.equal(await world.oceanOf(address), parseEther("10") - price);
    assert.equal(await world.balance(world.chain.contracts.oceanToken, thief), 0n, "thief: 0");
  } finally {
    await proxy.close();
    await world.close();
  }
});
