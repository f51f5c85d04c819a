import assert from "node:assert/strict";
import { FetchAhead } from "../../lib/expressions/_fetch_ahead.ts";
import type { HttpResponse } from "../../lib/http/client.ts";

Deno.test("pages requested ahead are used when asked for, cancelled when dropped", async () => {
  const signals = new Map<string, AbortSignal>();
  const ahead = new FetchAhead((offset, limit, signal) => {
    signals.set(`${offset}:${limit}`, signal);
    return new Promise<HttpResponse>((resolve, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason));
      setTimeout(() => resolve({ status: 200 } as HttpResponse), 5);
    });
  }, 3);
  ahead.plan(100, 1000, 100);
  assert.deepEqual([...signals.keys()], ["100:100", "200:100", "300:100"]);
  assert.equal((await ahead.take(100, 100)).status, 200, "the page asked for is the one ahead");
  assert.equal(signals.get("100:100")!.aborted, false);
  // The loop goes another way (a short page): the pages ahead are cancelled.
  await ahead.take(250, 100);
  assert.equal(signals.get("200:100")!.aborted, true);
  assert.equal(signals.get("300:100")!.aborted, true);
  ahead.plan(350, 1000, 100);
  ahead.stop();
  assert.equal(signals.get("350:100")!.aborted, true, "stop cancels what is left");
});
