/** Pacing is for public services: a client of a sandbox this process runs is not slowed by default. */

import assert from "node:assert/strict";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { startSandbox } from "../../lib/sandbox/mod.ts";

Deno.test("a client of a running sandbox has no polite interval; its own options still win", async () => {
  const sandbox = startExpressionSandbox();
  const url = sandbox.url;
  try {
    const client = new ExpressionSearch(`${url}/`, { progress: false });
    assert.deepEqual(client.http.pacing, { minIntervalMs: 0, concurrency: 1 });
    const asked = new ExpressionSearch(url, { minIntervalMs: 40, progress: false });
    assert.equal(asked.http.pacing.minIntervalMs, 40);
    // Paged reads with the default client are not held 250 ms apart.
    const { total } = await client.search({ emotion: "喜", limit: 1 });
    assert.ok(total > 0);
  } finally {
    await sandbox.close();
  }
  // Once the sandbox is gone, the same address is treated like any other server.
  assert.equal(new ExpressionSearch(url).http.pacing.minIntervalMs, 250);
  assert.equal(new ExpressionSearch("https://expressions.example").http.pacing.minIntervalMs, 250);
});

Deno.test("startSandbox(): every service's clients start unpaced", async () => {
  const sandbox = await startSandbox();
  try {
    assert.equal(new ExpressionSearch(sandbox.urls.expressions).http.pacing.minIntervalMs, 0);
  } finally {
    await sandbox.close();
  }
  assert.equal(new ExpressionSearch(sandbox.urls.expressions).http.pacing.minIntervalMs, 250);
});
