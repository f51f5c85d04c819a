/**
 * Two processes, one key (two notebooks, a notebook and a script): they
 * queue on the wallet's file lock instead of taking one nonce or spending
 * each other's allowance. Two real `deno run` children order at the same
 * moment, different services and then one service; anvil says what was
 * paid: every order succeeds, each service is paid once, and the wallet's
 * Ocean went down by exactly what the orders cost.
 */

import assert from "node:assert/strict";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startWaitingChild } from "./_waiting_child.ts";
import { moneyWorld } from "./_money_world.ts";

const child = new URL("./_order_child.ts", import.meta.url).pathname;

/** Starts one ordering child; it waits for `go` on its standard input. */
function startChild(env: Record<string, string>, signal: AbortSignal) {
  return startWaitingChild(child, env, signal);
}

Deno.test("two processes with one key queue on the wallet's lock", async (t) => {
  const world = await moneyWorld({ extra: 1 });
  const { ocean, chain, example } = world;
  const state = await Deno.makeTempDir({ prefix: "tidepool-state-" });
  // Children are ended by this signal whatever happens, and reaped in finally.
  const end = new AbortController();
  const running: Deno.ChildProcess[] = [];
  const race = async (key: string, services: { did: string; serviceId: string }[]) => {
    const children = services.map(({ did, serviceId }) =>
      startChild({
        NODE_URL: ocean.url,
        RPC_URL: chain.rpcUrl,
        BUYER_KEY: key,
        DID: did,
        SERVICE_ID: serviceId,
        TIDEPOOL_STATE_DIR: state,
      }, end.signal)
    );
    running.push(...children.map((c) => c.process));
    for (const c of children) assert.equal(await c.nextLine(), "ready");
    // Both are loaded and waiting: they start together.
    for (const c of children) {
      const writer = c.process.stdin.getWriter();
      await writer.write(new TextEncoder().encode("go\n"));
      await writer.close();
    }
    const results = [];
    for (const c of children) {
      const line = await c.nextLine();
      const status = await c.process.status;
      const stderr = new TextDecoder().decode(
        (await new Response(c.process.stderr).arrayBuffer()) as ArrayBuffer,
      );
      assert.equal(status.code, 0, `the child failed: ${line}\n${stderr.slice(-2000)}`);
      results.push(JSON.parse(line) as { txHash: string; source: string });
    }
    return results;
  };
  const service = (did: string) => {
    const ddo = ocean.ddos.find((d) => d.id === did)!;
    return { did, serviceId: ddo.services[0].id };
  };
  try {
    await t.step("two services at once: both paid, each once", async () => {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      await chain.fund(address, "10");
      // Two access services (ocean-node's initialize refuses a compute one).
      const other = [...chain.pricing.keys()].find((d) =>
        d !== example.dataset.documentId && d !== example.algorithm.documentId &&
        d !== world.download.documentId
      )!;
      const results = await race(key, [
        { did: world.download.documentId, serviceId: world.download.serviceId },
        service(other),
      ]);
      const paid = await world.ordersPaidBy(address);
      assert.equal(paid.length, 2);
      assert.deepEqual(new Set(results.map((r) => r.txHash)), new Set(paid.map((p) => p.tx)));
      assert.equal(await world.oceanOf(address), parseEther("10") - parseEther("2.002"));
    });

    await t.step("one service at once: paid once, both get that order", async () => {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      await chain.fund(address, "10");
      const target = { did: world.download.documentId, serviceId: world.download.serviceId };
      const results = await race(key, [target, target]);
      const paid = await world.ordersPaidBy(address);
      assert.equal(paid.length, 1, "one OrderStarted on chain");
      assert.deepEqual(results.map((r) => r.txHash), [paid[0].tx, paid[0].tx]);
      assert.deepEqual(results.map((r) => r.source).sort(), ["exchange", "reused"]);
      assert.equal(await world.oceanOf(address), parseEther("10") - parseEther("1.001"));
    });
  } finally {
    end.abort();
    for (const process of running) await process.status.catch(() => {});
    await world.close();
    await Deno.remove(state, { recursive: true });
  }
});
