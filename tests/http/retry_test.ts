import assert from "node:assert/strict";
import { backoffDelay, bodyWaitMs, retryAfterMs, retryPolicy } from "../../lib/http/retry.ts";

Deno.test("Retry-After reads seconds and HTTP dates", () => {
  assert.equal(retryAfterMs("3"), 3000);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs("soon"), undefined);
  const now = Date.parse("2026-11-22T10:00:00Z");
  assert.equal(retryAfterMs("Sun, 22 Nov 2026 10:00:05 GMT", now), 5000);
  assert.equal(retryAfterMs("Sun, 22 Nov 2026 09:00:00 GMT", now), 0);
});

Deno.test("a wait stated in the body is read in its unit", () => {
  assert.equal(bodyWaitMs("Rate limit exceeded. Try again in 12 seconds."), 12_000);
  assert.equal(bodyWaitMs("Try again in 1 second"), 1000);
  assert.equal(bodyWaitMs("try again in 500 ms"), 500);
  assert.equal(bodyWaitMs("Try again in 2 minutes"), 120_000);
  assert.equal(bodyWaitMs("Internal error"), undefined);
});

Deno.test("backoff is full jitter under a doubling ceiling", () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  assert.equal(backoffDelay(policy, 0, () => 0.999), 99);
  assert.equal(backoffDelay(policy, 3, () => 0.5), 400);
  assert.equal(backoffDelay(policy, 10, () => 0.999), 999);
  assert.equal(backoffDelay(policy, 2, () => 0), 0);
  assert.equal(retryPolicy(false).retries, 0);
});
