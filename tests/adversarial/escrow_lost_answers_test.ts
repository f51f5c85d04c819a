/**
 * An escrow step that happened without tidepool knowing it did. A failed
 * paid start set the node's authorization back, and said what the escrow
 * holds, from the hashes it had received: when the RPC endpoint passed the
 * `authorize` on to the chain and then answered an error, the node stayed
 * authorized to lock 0.75 Ocean of the 0.75 left free in the escrow (a
 * node may lock it later and claim it, with no job) while the error said
 * "the node's authorization is back to what it was"; a deposit whose
 * answer was lost was reported as "nothing was deposited"; and a start the
 * node answered with something unreadable (or that was stopped while the
 * node answered), after it had locked the price, was reported as a deposit
 * that "stays there free". The class: the escrow's state after a failure
 * taken from what tidepool sent, not from the chain. Members: the
 * authorization's answer lost, the deposit's answer lost, an unreadable
 * start answer after the lock, a stop while the start is answered, and the
 * approval of the deposit mined but answered with an error (it left the
 * Escrow allowed 0.75 Ocean). Checked
 * on anvil with viem: the Escrow's funds, authorization and locks.
 */

import assert from "node:assert/strict";
import { parseEther, parseTransaction, toFunctionSelector } from "viem";
import { OceanNode, TidepoolError } from "../../mod.ts";
import { hostileNode, rpcProxy } from "./_money_world.ts";
import { escrowWorld, payer } from "./_escrow_world.ts";

type Hex = `0x${string}`;
const PRICE = parseEther("0.75");

Deno.test("an escrow transaction mined but answered with an error: the authorization is set back and the error says what the escrow holds", async (t) => {
  const world = await escrowWorld();
  const deposit = toFunctionSelector("deposit(address,uint256)");
  const authorize = toFunctionSelector("authorize(address,address,uint256,uint256,uint256)");
  const approve = toFunctionSelector("approve(address,uint256)");
  const cases = [["authorize", authorize, PRICE], ["deposit", deposit, PRICE], [
    "approval",
    approve,
    0n,
  ]] as const;
  try {
    for (const [what, selector, free] of cases) {
      await t.step(`the ${what}'s answer lost`, async () => {
        const { key, address, request } = await payer(world);
        let lost = 0;
        const proxy = rpcProxy(world.chain.rpcUrl, {
          before: async (call) => {
            if (call.method !== "eth_sendRawTransaction" || lost > 0) return undefined;
            const tx = parseTransaction(call.params[0] as Hex);
            if (!tx.data?.startsWith(selector)) return undefined;
            // The chain takes it; the answer is lost on the way back.
            const answer = await fetch(world.chain.rpcUrl, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...call }),
            }).then((r) => r.json());
            assert.ok(answer.result, `the chain took the ${what}: ${JSON.stringify(answer)}`);
            lost++;
            return { error: { code: -32603, message: "upstream connection reset" } };
          },
        });
        try {
          const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
          const error = await node.startCompute({ ...request, rpcUrl: proxy.url }).then(
            () => undefined,
            (e) => e,
          );
          assert.ok(error instanceof TidepoolError, `refused: ${error}`);
          assert.equal(lost, 1, `the ${what}'s answer was lost`);
          assert.equal((await node.jobs(address)).numRows(), 0, "no job");
          assert.deepEqual(await world.funds(address), { available: free, locked: 0n });
          assert.deepEqual(await world.locks(address), []);
          const auth = await world.authorization(address);
          assert.ok(
            auth === null || auth.every((v) => v === 0n),
            `the node may lock nothing: ${auth}`,
          );
          assert.equal(await world.allowance(address), 0n, "the Escrow is allowed nothing");
          const hint = String(error.hint);
          assert.doesNotMatch(hint, /nothing was deposited/, hint);
          assert.match(
            hint,
            free ? /0\.75 \S+ free in the escrow/ : /0 \S+ free in the escrow/,
            hint,
          );
          if (free) assert.equal((await world.withdrawAll(key)).amount, "0.75");
          assert.equal(await world.oceanOf(address), parseEther("10"));
        } finally {
          await proxy.close();
        }
      });
    }
  } finally {
    await world.close();
  }
});

Deno.test("a start that fails after the node locked the price says it is locked, not free", async (t) => {
  const world = await escrowWorld();
  try {
    const cases = [
      ["an unreadable start answer", false],
      ["a stop while the start is answered", true],
    ] as const;
    for (const [what, stops] of cases) {
      await t.step(what, async () => {
        const { address, request } = await payer(world);
        const stop = new AbortController();
        const proxy = hostileNode(world.ocean.url, (url) => {
          if (url.pathname !== "/api/services/compute") return undefined;
          if (stops) stop.abort(new Error("stopped as the start was answered"));
          return { unexpected: true };
        });
        try {
          const node = new OceanNode(proxy.url, { progress: false, retry: false });
          const error = await node.startCompute({ ...request, signal: stop.signal }).then(
            () => undefined,
            (e) => e,
          );
          assert.ok(error instanceof TidepoolError, `failed: ${error}`);
          // The node locked the price before answering: the escrow holds it locked.
          assert.deepEqual(await world.funds(address), { available: 0n, locked: PRICE });
          assert.equal((await world.locks(address)).length, 1);
          const hint = String(error.hint);
          assert.doesNotMatch(hint, /stays there free/, hint);
          assert.match(hint, /0\.75 \S+ locked by the node/, hint);
          assert.match(hint, /may have started/, hint);
          assert.deepEqual(
            await world.authorization(address),
            [0n, PRICE, 0n, 0n, 1n],
            "set back: the node may lock nothing more",
          );
        } finally {
          await proxy.close();
        }
      });
    }
  } finally {
    await world.close();
  }
});

/** A JSON-RPC proxy refusing, unsent, the `nth` transaction calling `selector` (1-based). */
function refusing(rpcUrl: string, selector: Hex, nth: number) {
  let seen = 0;
  return rpcProxy(rpcUrl, {
    before: (call) => {
      if (call.method !== "eth_sendRawTransaction") return Promise.resolve(undefined);
      const tx = parseTransaction(call.params[0] as Hex);
      if (!tx.data?.startsWith(selector) || ++seen !== nth) return Promise.resolve(undefined);
      return Promise.resolve({ error: { code: -32603, message: "upstream connection reset" } });
    },
  });
}

Deno.test("a set-back that fails is said, never hidden by or hiding the first error", async (t) => {
  const world = await escrowWorld();
  const approve = toFunctionSelector("approve(address,uint256)");
  const deposit = toFunctionSelector("deposit(address,uint256)");
  const authorize = toFunctionSelector("authorize(address,address,uint256,uint256,uint256)");
  try {
    await t.step("the deposit refused, then the allowance's reset refused", async () => {
      const { address, request } = await payer(world);
      // The deposit and the approval after it (the reset) never reach the chain.
      const noDeposit = refusing(world.chain.rpcUrl, deposit, 1);
      const noReset = refusing(noDeposit.url, approve, 2);
      try {
        const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
        const error = await node.startCompute({ ...request, rpcUrl: noReset.url }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.doesNotMatch(error.message, /set .* back/, "the first error is the one shown");
        assert.match(
          String(error.hint),
          /allowance to the Escrow 0x[0-9a-fA-F]{40} could not be set back to 0 base units/,
        );
        assert.equal(await world.allowance(address), PRICE, "left as the hint says");
        assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n });
        assert.equal((await node.jobs(address)).numRows(), 0, "no job");
      } finally {
        await noReset.close();
        await noDeposit.close();
      }
    });

    await t.step("the job started, then the authorization's set-back refused", async () => {
      const { address, request } = await payer(world);
      const noRestore = refusing(world.chain.rpcUrl, authorize, 2);
      try {
        const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
        const error = await node.startCompute({ ...request, rpcUrl: noRestore.url }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof TidepoolError, `said: ${error}`);
        assert.match(error.message, /started, but the node's escrow authorization could not/);
        const hint = String(error.hint);
        assert.match(hint, /maxLockedAmount 0, maxLockSeconds 0, maxLockCounts 0/);
        assert.match(hint, /its orders: 0x[0-9a-f]{64}/);
        assert.equal((await node.jobs(address)).numRows(), 1, "the job runs");
        const auth = await world.authorization(address);
        assert.ok(auth && auth.some((v) => v > 0n), "the authorization stands, as said");
      } finally {
        await noRestore.close();
      }
    });
  } finally {
    await world.close();
  }
});
