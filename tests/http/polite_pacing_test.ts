/**
 * Polite by construction: the cap on requests in flight holds at the
 * server, a 429 or 503 halves the window and holds every request for the
 * server's Retry-After, and the window then grows back one at a time.
 * The cap and the pause are counted at a loopback server, not taken from
 * the client's own report.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/mod.ts";
import { HostPacer } from "../../lib/http/pacer.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { startNetworkGate } from "../../bench/_network_gate.ts";

const quiet = { progress: false as const, warn: () => {} };

/** A server that answers after a short wait, so requests overlap. */
function slowServer() {
  return serveLocal(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return Response.json({ ok: true });
  }, { maxRequests: 1000 });
}

Deno.test("the cap on requests in flight holds at the server, and is reached", async () => {
  const upstream = slowServer();
  const gate = startNetworkGate(upstream.url, { delayMs: 10 });
  try {
    for (const concurrency of [1, 3, 8]) {
      gate.inFlight.max = 0;
      const http = new HttpClient(gate.url, { ...quiet, concurrency });
      await Promise.all(Array.from({ length: 24 }, () => http.request({ path: "/page" })));
      assert.equal(gate.inFlight.max, concurrency, `concurrency ${concurrency}`);
    }
  } finally {
    await gate.close();
    await upstream.close();
  }
});

Deno.test("a 503 storm: the reads complete, the cap holds and Retry-After is kept by every request", async () => {
  const upstream = slowServer();
  // Pages take 200 ms; a refusal comes at once, so the requests that follow the answers
  // still in flight would arrive inside the pause if the client did not keep it.
  const gate = startNetworkGate(upstream.url, {
    delayMs: 200,
    unavailableEvery: 3,
    retryAfterSeconds: 1,
  });
  try {
    const http = new HttpClient(gate.url, { ...quiet, concurrency: 6, retry: { retries: 8 } });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => http.request({ path: "/page" })),
    );
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.ok(gate.refused >= 4, `${gate.refused} refusals`);
    assert.ok(gate.inFlight.max <= 6);
    // No request left while a pause the server asked for was running (requests already on
    // their way when it was sent arrive within the grace).
    // A request already on its way when the 503 left may arrive late on a loaded machine:
    // 250 ms of grace each side still leaves half of each 1 s pause that must stay empty.
    assert.equal(gate.early(250), 0);
    // The window shrank below the cap and has not grown back in these few answers.
    assert.ok(http.inFlight.window < 6, `window ${http.inFlight.window}`);
  } finally {
    await gate.close();
    await upstream.close();
  }
});

Deno.test("429 and 503 halve the window once per burst; calm answers grow it back one at a time", async () => {
  const pacer = new HostPacer({ minIntervalMs: 0, concurrency: 8 });
  const slots = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
  assert.equal(pacer.inFlight, 8);
  // Three answers of the same burst say "overloaded": one halving, not three.
  for (const slot of slots.slice(0, 3)) pacer.overloaded(slot);
  assert.equal(pacer.window, 4);
  for (let i = 0; i < 8; i++) pacer.release();
  // A later request's overload halves again, down to one and never below.
  for (const expected of [2, 1, 1]) {
    const slot = await pacer.acquire();
    pacer.overloaded(slot);
    pacer.release();
    assert.equal(pacer.window, expected);
  }
  // Additive increase: one more per window-full of calm answers.
  const grown: number[] = [];
  for (let i = 0; i < 1 + 2 + 3 + 4 + 5 + 6 + 7; i++) {
    pacer.answered();
    grown.push(pacer.window);
  }
  assert.deepEqual([...new Set(grown)], [2, 3, 4, 5, 6, 7, 8]);
  assert.equal(grown.indexOf(8), 27);
});

Deno.test("a shrunk window holds requests back until answers widen it again", async () => {
  const pacer = new HostPacer({ minIntervalMs: 0, concurrency: 4 });
  const first = await pacer.acquire();
  pacer.overloaded(first); // window 2
  pacer.overloaded(first); // the same burst: still 2
  assert.equal(pacer.window, 2);
  await pacer.acquire();
  let third = false;
  const waiting = pacer.acquire().then(() => third = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(third, false, "a third request waits while two are in flight");
  pacer.answered();
  pacer.answered(); // two calm answers: the window grows to 3 and lets it start
  await waiting;
  assert.equal(pacer.inFlight, 3);
});
