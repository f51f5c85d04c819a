import assert from "node:assert/strict";
import { sleep } from "../../lib/http/sleep.ts";
import { PagingCapError } from "../../lib/paging/errors.ts";
import { withSandbox } from "./_helpers.ts";

Deno.test("orders: a per-call signal cancels the page in flight and the one read ahead", async () => {
  const signals: AbortSignal[] = [];
  const controller = new AbortController();
  let pages = 0;
  const slow: typeof fetch = async (input, init) => {
    if (pages++ > 0) {
      signals.push(init!.signal!);
      // The user stops the read while the second page is in flight.
      if (pages === 2) setTimeout(() => controller.abort(new Error("stopped by the user")), 50);
      await sleep(5_000, init!.signal!);
    }
    return fetch(input, init);
  };
  await withSandbox(async ({ sg }) => {
    const started = Date.now();
    const error = await sg.orders({ orderBy: "id", signal: controller.signal }).catch((e) => e);
    assert.equal(error.message, "stopped by the user");
    assert.ok(Date.now() - started < 4_000, "stopped before the slow page's 5 s");
    assert.ok(signals.length >= 1, "the second page was requested");
    assert.ok(signals.every((s) => s.aborted), "and cancelled");
  }, { fetch: slow });
});

Deno.test("paginate: the page cap names itself and how to raise it", async () => {
  await withSandbox(async ({ sg, sent }) => {
    const error = await sg.paginate({
      entity: "orders",
      fields: ["id"],
      pageSize: 100,
      maxPages: 3,
    })
      .catch((e) => e);
    assert.ok(error instanceof PagingCapError, String(error));
    assert.match(error.message, /cap of 3 pages \(maxPages\)/);
    assert.match(error.message, /paginate\(\)/);
    assert.ok(sent.length <= 4, `${sent.length} requests`);
  });
});
