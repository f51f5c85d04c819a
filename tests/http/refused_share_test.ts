/**
 * A server that refuses a share of requests (429 or 503) while it serves
 * the others: a polite client completes as long as some are accepted. The
 * refused request goes first when the pause ends, a refusal while the host
 * serves others uses up no retry, and the time budget is what bounds a
 * request the host refuses every time. Counted at loopback servers.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/mod.ts";
import { HttpError } from "../../lib/errors/errors.ts";
import { HostPacer } from "../../lib/http/pacer.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { startNetworkGate } from "../../bench/_network_gate.ts";

const quiet = { progress: false as const, warn: () => {} };

/** A server that answers each path after a short wait, so requests overlap. */
function pagesServer() {
  return serveLocal(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return Response.json({ path: new URL(request.url).pathname });
  }, { maxRequests: 5_000 });
}

/**
 * Eight cursors, each asking its next page only after the one before it (as
 * the ranges of a subgraph read and the windows of a harvest do).
 */
async function cursors(http: HttpClient, count: number, pages: number): Promise<number> {
  let answered = 0;
  await Promise.all(Array.from({ length: count }, async (_, cursor) => {
    for (let page = 0; page < pages; page++) {
      const response = await http.request({ path: `/c${cursor}/p${page}` });
      assert.equal(response.json<{ path: string }>().path, `/c${cursor}/p${page}`);
      answered++;
    }
  }));
  return answered;
}

Deno.test("every third request refused with Retry-After: eight cursors complete on the default retries, within the cap", async () => {
  const upstream = pagesServer();
  // A refusal comes at once and a page takes 20 ms: before the fix, the refused request
  // slept apart while fresh ones took the slots, met the every-third count again and again,
  // and failed on its fifth refusal.
  const gate = startNetworkGate(upstream.url, {
    delayMs: 20,
    unavailableEvery: 3,
    retryAfterSeconds: 0.05,
  });
  try {
    for (const concurrency of [8]) {
      gate.inFlight.max = 0;
      const http = new HttpClient(gate.url, { ...quiet, concurrency });
      const before = gate.refused;
      assert.equal(await cursors(http, 8, 8), 64);
      assert.ok(gate.refused - before >= 20, `${gate.refused - before} refusals`);
      assert.ok(gate.inFlight.max <= concurrency, `${gate.inFlight.max} in flight`);
    }
    // No request left while a pause the gate asked for was running.
    // The pause itself is proved with a 1 s Retry-After in polite_pacing_test.ts: 50 ms pauses
    // are too short to judge from arrival times on a loaded machine.
  } finally {
    await gate.close();
    await upstream.close();
  }
});

Deno.test("a host that refuses one request every time, serving the others: the time budget ends it, not the count", async () => {
  let stuck = 0;
  let served = 0;
  const server = serveLocal((request) => {
    if (new URL(request.url).pathname === "/stuck") {
      stuck++;
      return new Response("Busy", { status: 503, headers: { "retry-after": "0.01" } });
    }
    served++;
    return Response.json({ ok: true });
  }, { maxRequests: 5_000 });
  try {
    const http = new HttpClient(server.url, {
      ...quiet,
      concurrency: 2,
      retry: { retries: 2, maxElapsedMs: 600 },
    });
    let done = false;
    // Another request keeps being served while /stuck is refused.
    const others = (async () => {
      while (!done) await http.request({ path: "/other" });
    })();
    const error = await http.request({ path: "/stuck" }).catch((e) => e).finally(() => done = true);
    await others;
    assert.ok(error instanceof HttpError, String(error));
    assert.equal(error.status, 503);
    // Shared refusals used no retry: far more attempts than 1 + 2 retries, and then it ended.
    assert.ok(stuck > 3, `${stuck} attempts at /stuck`);
    assert.ok(served > 0);
  } finally {
    await server.close();
  }
});

Deno.test("a host that refuses everything: the retries are used up as before", async () => {
  let hits = 0;
  const server = serveLocal(() => {
    hits++;
    return new Response("Busy", { status: 503, headers: { "retry-after": "0.01" } });
  }, { maxRequests: 100 });
  try {
    const http = new HttpClient(server.url, { ...quiet, concurrency: 4, retry: { retries: 3 } });
    const results = await Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => http.request({ path: `/p${i}` })),
    );
    assert.ok(results.every((r) => r.status === "rejected"));
    assert.equal(hits, 3 * 4, "each request: its first attempt and 3 retries");
    const once = new HttpClient(server.url, { ...quiet, retry: false });
    hits = 0;
    await assert.rejects(once.request({ path: "/q" }), HttpError);
    assert.equal(hits, 1, "retry: false never retries");
  } finally {
    await server.close();
  }
});

Deno.test("the refused request is the next one the server sees after its Retry-After, before requests asked for during the pause", async () => {
  const arrivals: string[] = [];
  let refuse!: () => void;
  const refused = new Promise<void>((resolve) => refuse = resolve);
  const server = serveLocal((request) => {
    const path = new URL(request.url).pathname;
    arrivals.push(path);
    if (path === "/r" && arrivals.length === 1) {
      refuse();
      return new Response("Busy", { status: 503, headers: { "retry-after": "0.1" } });
    }
    return Response.json({ path });
  }, { maxRequests: 20 });
  try {
    const http = new HttpClient(server.url, { ...quiet, concurrency: 2 });
    const retried = http.request({ path: "/r" });
    await refused;
    // Once the client has taken the refusal in (its window halved), ask for two more while
    // the pause runs: they wait for it, behind the refused request.
    while (http.inFlight.window === 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const fresh = [http.request({ path: "/f1" }), http.request({ path: "/f2" })];
    await Promise.all([retried, ...fresh]);
    assert.deepEqual(arrivals.slice(0, 2), ["/r", "/r"]);
    assert.deepEqual(arrivals.slice(2).sort(), ["/f1", "/f2"]);
  } finally {
    await server.close();
  }
});

Deno.test("when a pause ends, the refused request starts before the fresh ones", async () => {
  const pacer = new HostPacer({ minIntervalMs: 0, concurrency: 2 });
  const started: string[] = [];
  const [refused, other] = [await pacer.acquire(), await pacer.acquire()];
  pacer.overloaded(refused, 30); // window 1, every start held for 30 ms
  pacer.release();
  const fresh = pacer.acquire().then(() => started.push("fresh"));
  const retry = pacer.acquire(undefined, true).then(() => started.push("retry"));
  void other;
  pacer.release(); // the other request's answer frees the one slot the window has
  await retry;
  pacer.release();
  await fresh;
  assert.deepEqual(started, ["retry", "fresh"]);

  // Both holding slots while the pause runs: the retry is woken first.
  const wide = new HostPacer({ minIntervalMs: 0, concurrency: 4 });
  const order: string[] = [];
  const first = await wide.acquire();
  wide.overloaded(first, 30);
  wide.release();
  const a = wide.acquire().then(() => order.push("fresh"));
  const b = wide.acquire(undefined, true).then(() => order.push("retry"));
  await Promise.all([a, b]);
  assert.deepEqual(order, ["retry", "fresh"]);
});

Deno.test("an abort while waiting out a pause leaves the queue and frees the slot", async () => {
  const pacer = new HostPacer({ minIntervalMs: 0, concurrency: 2 });
  const slot = await pacer.acquire();
  pacer.overloaded(slot, 60_000);
  pacer.release();
  const stop = new AbortController();
  const waiting = pacer.acquire(stop.signal);
  stop.abort(new Error("stopped"));
  await assert.rejects(waiting, /stopped/);
  assert.equal(pacer.inFlight, 0);
});
