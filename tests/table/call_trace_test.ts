/**
 * Call traces: the client notes each request in the trace of the call it
 * runs for, concurrent calls on one client keep apart, and a call made
 * inside another counts for both.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { noteAsOf, noteTrace, traceApart, traceCall } from "../../lib/table/call_trace.ts";

/**
 * Answers `{path}`; a path listed in `holds` is answered once its promise
 * settles, so tests order answers by events, not by delays.
 */
function serve(holds: Record<string, Promise<unknown>> = {}) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      await holds[path];
      return Response.json({ path });
    },
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Resolves at least `ms` later: what is noted after it has a later ISO time than what came before. */
const atLeast = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("concurrent calls on one client keep their own cache keys and times", async () => {
  // a's first answer waits until b has its own and a millisecond has passed.
  let bAnswered!: () => void;
  const afterB = new Promise<void>((resolve) => bAnswered = resolve).then(() => atLeast(2));
  const server = serve({ "/a": afterB });
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { cache: { dir, mode: "record" }, progress: false });
    const [a, b] = await Promise.all([
      traceCall(async () => {
        await http.request({ path: "/a" });
        noteAsOf({ block: 1 });
        await http.request({ path: "/a2" });
      }),
      traceCall(async () => {
        await http.request({ path: "/b" });
        noteAsOf({ block: 2, blockTime: undefined });
      }).finally(bAnswered),
    ]);
    assert.equal(a.trace.cacheKeys.length, 2);
    assert.equal(b.trace.cacheKeys.length, 1);
    assert.ok(!a.trace.cacheKeys.includes(b.trace.cacheKeys[0]));
    assert.deepEqual(a.trace.asOf, { block: 1 });
    assert.deepEqual(b.trace.asOf, { block: 2 });
    assert.ok(a.trace.startedAt! <= a.trace.endedAt!);
    assert.ok(b.trace.endedAt! < a.trace.endedAt!, "b answered before a's second request");
    const again = await traceCall(() => http.request({ path: "/b" }));
    // Replayed from the cache: the recording's times and key.
    assert.deepEqual(again.trace, { ...b.trace, asOf: {} });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a call inside another counts for both; without a cache there are no keys", async () => {
  const server = serve();
  try {
    const http = new HttpClient(server.url, { progress: false });
    let inner;
    const outer = await traceCall(async () => {
      await http.request({ path: "/outer" });
      inner = await traceCall(async () => {
        await http.request({ path: "/inner" });
        noteAsOf({ responseDate: "2026-01-01T00:00:00Z" });
      });
    });
    assert.deepEqual(outer.trace.cacheKeys, []);
    assert.deepEqual(outer.trace.asOf, { responseDate: "2026-01-01T00:00:00Z" });
    assert.equal(outer.trace.endedAt, inner!.trace.endedAt);
    assert.ok(outer.trace.startedAt! <= inner!.trace.startedAt!);
    // Outside any call, nothing is noted and nothing fails.
    await http.request({ path: "/alone" });
  } finally {
    await server.close();
  }
});

Deno.test("a request traced apart counts for the call that notes its trace, not the one it ran in", async () => {
  const server = serve();
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { cache: { dir, mode: "record" }, progress: false });
    let ahead!: ReturnType<typeof traceApart<unknown>>;
    // The step that starts a request for a later page, as a read-ahead does.
    const starting = await traceCall(async () => {
      await http.request({ path: "/page1" });
      ahead = traceApart(async () => {
        const answer = await http.request({ path: "/page2" });
        noteAsOf({ block: 9 });
        return answer;
      });
      await ahead;
    });
    // The step that hands that page on.
    const taking = await traceCall(async () => noteTrace((await ahead).trace));
    const apart = (await ahead).trace;
    assert.equal(starting.trace.cacheKeys.length, 1);
    assert.deepEqual(starting.trace.asOf, {});
    assert.equal(apart.cacheKeys.length, 1);
    assert.notEqual(apart.cacheKeys[0], starting.trace.cacheKeys[0]);
    assert.deepEqual(taking.trace, apart);
    // Outside any call, noting a trace does nothing and does not fail.
    noteTrace(apart);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
