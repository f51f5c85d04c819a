/**
 * Call traces: the client notes each request in the trace of the call it
 * runs for, concurrent calls on one client keep apart, and a call made
 * inside another counts for both.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { noteAsOf, traceCall } from "../../lib/http/call_trace.ts";

function serve() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const delay = Number(new URL(request.url).searchParams.get("delay") ?? 0);
      await new Promise((resolve) => setTimeout(resolve, delay));
      return Response.json({ path: new URL(request.url).pathname });
    },
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("concurrent calls on one client keep their own cache keys and times", async () => {
  const server = serve();
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { cache: { dir, mode: "record" }, progress: false });
    const [a, b] = await Promise.all([
      traceCall(async () => {
        await http.request({ path: "/a", query: { delay: 30 } });
        noteAsOf({ block: 1 });
        await http.request({ path: "/a2" });
      }),
      traceCall(async () => {
        await http.request({ path: "/b", query: { delay: 5 } });
        noteAsOf({ block: 2, blockTime: undefined });
      }),
    ]);
    assert.equal(a.trace.cacheKeys.length, 2);
    assert.equal(b.trace.cacheKeys.length, 1);
    assert.ok(!a.trace.cacheKeys.includes(b.trace.cacheKeys[0]));
    assert.deepEqual(a.trace.asOf, { block: 1 });
    assert.deepEqual(b.trace.asOf, { block: 2 });
    assert.ok(a.trace.startedAt! <= a.trace.endedAt!);
    assert.ok(b.trace.endedAt! < a.trace.endedAt!, "b answered before a's second request");
    const again = await traceCall(() => http.request({ path: "/b", query: { delay: 5 } }));
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
