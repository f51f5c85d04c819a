/**
 * Paid compute through the Escrow, attacked from the other side: a node
 * that asks more (or other terms) than it quoted, a cap that does not
 * cover the escrow, a node that locks more than authorized, a stop between
 * the deposit and the start, two processes paying with one key. Every
 * outcome is read from anvil with viem (nonces, balances, the Escrow's
 * funds, authorizations and locks), never from tidepool's report.
 */

import assert from "node:assert/strict";
import { parseEther, parseTransaction, toFunctionSelector } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { startWaitingChild } from "./_waiting_child.ts";
import { hostileNode, rpcProxy } from "./_money_world.ts";
import { type EscrowWorld, escrowWorld, payer, type PayerCall } from "./_escrow_world.ts";

type Json = Record<string, unknown>;
const PRICE = parseEther("0.75");

/** Nothing of the payer's moved: no transaction, no Ocean, no escrow funds, no authorization, no order. */
async function untouched(world: EscrowWorld, address: string) {
  assert.equal(await world.sent(address), 0, "no transaction was sent");
  assert.equal(await world.oceanOf(address), parseEther("10"), "no Ocean left the wallet");
  assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "no escrow funds");
  assert.equal(await world.authorization(address), null, "no authorization");
  assert.equal((await world.ordersPaidBy(address)).length, 0, "no order");
}

Deno.test("a node that asks more or other escrow terms than it quoted is refused before any transfer", async (t) => {
  const world = await escrowWorld();
  const proxies: { close(): Promise<void> }[] = [];
  try {
    const other = privateKeyToAccount(generatePrivateKey()).address;
    const changes: [string, (p: Json) => Json, RegExp][] = [
      [
        "one base unit more",
        (p) => ({ ...p, amount: String(BigInt(String(p.amount)) + 1n) }),
        /more than it quoted/,
      ],
      ["another payee", (p) => ({ ...p, payee: other }), /other escrow terms/],
      [
        "another escrow",
        (p) => ({ ...p, escrowAddress: other }),
        /not the Escrow contract trusted on chain/,
      ],
      [
        "a longer lock",
        (p) => ({ ...p, minLockSeconds: Number(p.minLockSeconds) * 100 }),
        /other escrow terms/,
      ],
    ];
    for (const [what, change, pattern] of changes) {
      await t.step(`${what} at the start than at the quote`, async () => {
        let asked = 0;
        const proxy = hostileNode(world.ocean.url, (url, body) => {
          if (url.pathname !== "/api/services/initializeCompute" || ++asked === 1) return undefined;
          const terms = body as { payment: Json };
          return { ...terms, payment: change(terms.payment) };
        });
        proxies.push(proxy);
        const node = new OceanNode(proxy.url, { progress: false, retry: false });
        const { address, request } = await payer(world);
        const quote = await node.quoteCompute(request);
        const error = await node.startCompute({ ...request, quote }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof TidepoolError, `refused: ${error}`);
        assert.match(error.message, pattern);
        assert.match(String(error.hint), /Nothing was sent or paid/);
        assert.equal(asked, 2, "asked again right before paying");
        await untouched(world, address);
      });
    }

    await t.step("a lock longer than maxLockSeconds is refused at the quote", async () => {
      const eightDays = 8 * 24 * 3600;
      const proxy = hostileNode(world.ocean.url, (url, body) => {
        if (url.pathname !== "/api/services/initializeCompute") return undefined;
        const terms = body as { payment: Json };
        return { ...terms, payment: { ...terms.payment, minLockSeconds: eightDays } };
      });
      proxies.push(proxy);
      const node = new OceanNode(proxy.url, { progress: false, retry: false });
      const { address, request } = await payer(world);
      await assert.rejects(node.quoteCompute(request), /longer than maxLockSeconds \(604800\)/);
      await assert.rejects(
        node.quoteCompute({ ...request, maxLockSeconds: 3600 }),
        /minLockSeconds 691200 is longer than maxLockSeconds \(3600\)/,
      );
      const quote = await node.quoteCompute({ ...request, maxLockSeconds: eightDays });
      assert.equal(quote.escrow?.lockSeconds, eightDays);
      await untouched(world, address);
    });

    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    const caps: [string, unknown, RegExp][] = [
      ["no cap", undefined, /no maxPrice was given/],
      [
        "a cap below the price",
        { [world.chain.contracts.oceanToken]: "0.5" },
        /above maxPrice 0.5/,
      ],
      ["an amount alone, with no datatoken priced in Ocean", "5", /a token maxPrice does not cap/],
      ["a cap in another token only", { [other]: "100" }, /a token maxPrice does not cap/],
      [
        "a cap one base unit below the price",
        { [world.chain.contracts.oceanToken]: "0.749999999999999999" },
        /above maxPrice 0.749999999999999999/,
      ],
      [
        "a cap past the token's decimals, rounded down below the price",
        { [world.chain.contracts.oceanToken]: "0.7499999999999999999" },
        /above maxPrice/,
      ],
    ];
    for (const [what, maxPrice, pattern] of caps) {
      await t.step(`${what}: the escrow is refused at the quote and at the start`, async () => {
        const { address, request } = await payer(world);
        const capped = { ...request, maxPrice: maxPrice as string };
        await assert.rejects(node.quoteCompute(capped), pattern);
        await assert.rejects(node.startCompute(capped), pattern);
        await untouched(world, address);
      });
    }

    await t.step("funds free at the quote and gone at the start: no larger deposit", async () => {
      const { key, address, request } = await payer(world);
      // The payer deposits the price itself: the quote deposits nothing.
      await world.payerSends(key, "approve", [world.chain.contracts.escrow, PRICE]);
      await world.payerSends(key, "deposit", [world.chain.contracts.oceanToken, PRICE]);
      const quote = await node.quoteCompute(request);
      assert.equal(quote.escrow?.deposit, 0n);
      await world.withdrawAll(key);
      const sent = await world.sent(address);
      await assert.rejects(
        node.startCompute({ ...request, quote }),
        /the escrow now needs a deposit of 0.75 .*, the quote said 0 /,
      );
      assert.equal(await world.sent(address), sent, "nothing sent");
      assert.equal(await world.oceanOf(address), parseEther("10"));
      assert.equal(await world.authorization(address), null);
    });

    await t.step("a wallet that cannot fund the deposit is refused before the orders", async () => {
      const { address, request } = await payer(world);
      const poor = signerFromPrivateKey(generatePrivateKey());
      await world.chain.fund(poor.address, "0.5");
      await assert.rejects(
        node.startCompute({ ...request, signer: poor }),
        /insufficient balance: 0.5 \S+ held, 0.75 \S+ needed \(escrow deposit 0.75, orders 0\)/,
      );
      assert.equal(await world.sent(poor.address), 0, "no order, no deposit");
      assert.equal((await world.ordersPaidBy(poor.address)).length, 0);
      await untouched(world, address);
    });

    await t.step("in replay mode nothing is read for the escrow or paid", async () => {
      const { address, request } = await payer(world);
      const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
      const replaying = new OceanNode(world.ocean.url, {
        progress: false,
        cache: { dir, mode: "replay" },
      });
      try {
        for (
          const call of [
            () => replaying.quoteCompute(request),
            () => replaying.startCompute(request),
          ]
        ) {
          await assert.rejects(
            call(),
            /in replay mode: a recording never decides or sends a payment/,
          );
        }
        Deno.env.set("TIDEPOOL_CACHE_MODE", "replay");
        Deno.env.set("TIDEPOOL_CACHE_DIR", dir);
        await assert.rejects(node.startCompute(request), /in replay mode/);
      } finally {
        Deno.env.delete("TIDEPOOL_CACHE_MODE");
        Deno.env.delete("TIDEPOOL_CACHE_DIR");
        await Deno.remove(dir, { recursive: true });
      }
      await untouched(world, address);
    });
  } finally {
    for (const proxy of proxies) await proxy.close();
    await world.close();
  }
});

Deno.test("a node that locks more than quoted starts nothing, even under a generous standing authorization, which is set back", async () => {
  const world = await escrowWorld();
  try {
    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    const { key, address, request } = await payer(world);
    // The payer's own escrow before: 1.5 Ocean free, and a generous standing authorization
    // of the node (10 Ocean, an hour, five locks) that would let it lock twice the price.
    const { escrow, oceanToken } = world.chain.contracts;
    const send = (functionName: PayerCall, args: unknown[]) =>
      world.payerSends(key, functionName, args);
    await send("approve", [escrow, 2n * PRICE]);
    await send("deposit", [oceanToken, 2n * PRICE]);
    await send("authorize", [
      oceanToken,
      world.chain.nodeAddress,
      parseEther("10"),
      3600n,
      5n,
    ]);
    const sentBefore = await world.sent(address);
    const before = await world.authorization(address);
    world.ocean.compute!.faults.escrowLockFactor = 2;
    const error = await node.startCompute(request).then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `refused: ${error}`);
    assert.match(String(error.details ?? error.message), /Exceeds maxLockedAmount/);
    assert.match(String(error.hint), /authorization is back to what it was/);
    assert.match(String(error.hint), /nothing was deposited/);
    assert.deepEqual(await world.authorization(address), before, "set back exactly");
    assert.deepEqual(await world.funds(address), { available: 2n * PRICE, locked: 0n });
    assert.equal(
      await world.oceanOf(address),
      parseEther("8.5"),
      "nothing deposited: enough was free",
    );
    // The orders (dispense, startOrder, twice), the authorization and setting it back.
    assert.equal(await world.sent(address) - sentBefore, 6);
    assert.deepEqual(await world.locks(address), [], "nothing locked");
    assert.equal((await node.jobs(address)).numRows(), 0, "no job");
    assert.equal(await world.allowance(address), 0n);
    await world.withdrawAll(key);
    assert.equal(await world.oceanOf(address), parseEther("10"), "every Ocean came back");
  } finally {
    await world.close();
  }
});

/** Starts the payer's job through an RPC proxy that fires the stop once a transaction of `selector` is sent. */
async function startStoppedAt(
  world: EscrowWorld,
  request: Awaited<ReturnType<typeof payer>>["request"],
  selector: string,
) {
  const stop = new AbortController();
  const proxy = rpcProxy(world.chain.rpcUrl, {
    after: (call) => {
      if (call.method !== "eth_sendRawTransaction") return;
      const tx = parseTransaction(call.params[0] as `0x${string}`);
      if (tx.data?.startsWith(selector)) stop.abort(new Error(`stopped after ${selector}`));
    },
  });
  try {
    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    const error = await node.startCompute({
      ...request,
      rpcUrl: proxy.url,
      signal: stop.signal,
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof TidepoolError, `stopped: ${error}`);
    assert.equal((await node.jobs(request.signer.address)).numRows(), 0, "no job");
    return error;
  } finally {
    await proxy.close();
  }
}

Deno.test("a stop between the deposit and the start starts no job and leaves the deposit withdrawable", async (t) => {
  const world = await escrowWorld();
  const deposit = toFunctionSelector("deposit(address,uint256)");
  const authorize = toFunctionSelector("authorize(address,address,uint256,uint256,uint256)");
  try {
    for (const [after, selector] of [["deposit", deposit], ["authorize", authorize]] as const) {
      await t.step(`stopped as the ${after} is mined`, async () => {
        const { key, address, request } = await payer(world);
        const error = await startStoppedAt(world, request, selector);
        assert.match(error.message, /stopped by the signal before the start was signed/);
        assert.match(String(error.hint), /was deposited into the escrow .* withdrawEscrow/);
        assert.deepEqual(await world.funds(address), { available: PRICE, locked: 0n });
        assert.deepEqual(await world.locks(address), []);
        // Never authorized, or authorized and set back to allowing nothing.
        const auth = await world.authorization(address);
        assert.deepEqual(auth, after === "deposit" ? null : [0n, 0n, 0n, 0n, 0n]);
        assert.equal(await world.allowance(address), 0n);
        const back = await world.withdrawAll(key);
        assert.equal(back.amount, "0.75");
        assert.equal(await world.oceanOf(address), parseEther("10"));
      });
    }

    await t.step(
      "stopped as the escrow's approval is mined, another program's allowance standing",
      async () => {
        const { key, address, request } = await payer(world);
        // Another program of the payer's allows the Escrow 5 Ocean.
        await world.payerSends(key, "approve", [world.chain.contracts.escrow, parseEther("5")]);
        const sent = await world.sent(address);
        const approve = toFunctionSelector("approve(address,uint256)");
        const error = await startStoppedAt(world, request, approve);
        assert.match(String(error.hint), /no deposit into the escrow .* was confirmed; 0 \S+ free/);
        assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "no deposit");
        assert.equal(await world.authorization(address), null, "never authorized");
        assert.equal(await world.allowance(address), parseEther("5"), "the allowance set back");
        assert.equal(await world.oceanOf(address), parseEther("10"));
        // The orders (dispense, startOrder, twice), the approval and the one setting it back.
        assert.equal(await world.sent(address) - sent, 6);
      },
    );
  } finally {
    await world.close();
  }
});

const child = new URL("./_escrow_start_child.ts", import.meta.url).pathname;

Deno.test("two processes starting with one key: each job paid once, nothing deposited twice", async () => {
  const world = await escrowWorld();
  const state = await Deno.makeTempDir({ prefix: "tidepool-state-" });
  const end = new AbortController();
  const running: Deno.ChildProcess[] = [];
  try {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    await world.chain.fund(address, "10");
    const children = [0, 1].map(() => {
      const started = startWaitingChild(child, {
        NODE_URL: world.ocean.url,
        RPC_URL: world.chain.rpcUrl,
        BUYER_KEY: key,
        ENVIRONMENT: world.example.environment,
        ALGORITHM: JSON.stringify(world.example.algorithm),
        DATASET: JSON.stringify(world.example.dataset),
        TOKEN: world.chain.contracts.oceanToken.toLowerCase(),
        ESCROW: world.chain.contracts.escrow,
        TIDEPOOL_STATE_DIR: state,
      }, end.signal);
      running.push(started.process);
      return started;
    });
    for (const c of children) assert.equal(await c.nextLine(), "ready");
    for (const c of children) {
      const writer = c.process.stdin.getWriter();
      await writer.write(new TextEncoder().encode("go\n"));
      await writer.close();
    }
    const results: { jobId: string; orders: string[]; deposit: string }[] = [];
    for (const c of children) {
      const line = await c.nextLine();
      const status = await c.process.status;
      const stderr = await new Response(c.process.stderr).text();
      assert.equal(status.code, 0, `the child failed: ${line}\n${stderr.slice(-2000)}`);
      results.push(JSON.parse(line));
    }
    assert.equal((await world.ordersPaidBy(address)).length, 2, "each asset ordered once");
    assert.deepEqual(
      results.map((r) => r.orders.join()).sort(),
      ["dispenser,dispenser", "reused,reused"],
    );
    assert.notEqual(results[0].jobId, results[1].jobId, "two jobs, as asked");
    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    for (const r of results) {
      await node.waitForJob(address, r.jobId, { pollMs: 10, timeoutMs: 10_000 });
    }
    await node.jobs(address); // the sandbox claims what it sees ended
    assert.deepEqual(await world.funds(address), { available: 0n, locked: 0n }, "none left over");
    assert.equal(
      parseEther("10") - await world.oceanOf(address),
      2n * PRICE,
      "each job's price once, nothing more",
    );
    assert.deepEqual(await world.authorization(address), [0n, 0n, 0n, 0n, 0n], "set back");
  } finally {
    end.abort();
    for (const process of running) await process.status.catch(() => {});
    await world.close();
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("a node that never claims: after the lock expires the payer takes every token back", async () => {
  const world = await escrowWorld();
  try {
    const node = new OceanNode(world.ocean.url, { progress: false, retry: false });
    const { key, address, request } = await payer(world);
    world.ocean.compute!.faults.escrowNeverClaims = true;
    const { jobs: [job] } = await node.startCompute(request);
    await node.waitForJob(address, job.jobId, { pollMs: 10, timeoutMs: 10_000 });
    assert.deepEqual(await world.funds(address), { available: 0n, locked: PRICE }, "never claimed");
    assert.deepEqual(await world.authorization(address), [0n, PRICE, 0n, 0n, 1n], "set back");
    const { chainClients } = await import("../../lib/sandbox/chain/_chain_clients.ts");
    const { publicClient } = chainClients(world.chain);
    // Past the lock's 660 s anyone may cancel it (0: any job of this payer and node).
    await publicClient.request({ method: "evm_increaseTime" as never, params: [661] as never });
    await publicClient.request({ method: "evm_mine" as never, params: [] as never });
    await world.payerSends(key, "cancelExpiredLock", [
      0n,
      world.chain.contracts.oceanToken,
      address,
      world.chain.nodeAddress,
    ]);
    assert.deepEqual(await world.funds(address), { available: PRICE, locked: 0n });
    assert.deepEqual(await world.authorization(address), [0n, 0n, 0n, 0n, 0n]);
    await world.withdrawAll(key);
    assert.equal(await world.oceanOf(address), parseEther("10"), "every Ocean came back");
  } finally {
    await world.close();
  }
});
