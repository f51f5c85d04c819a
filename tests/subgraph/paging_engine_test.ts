import assert from "node:assert/strict";
import { BEYOND_HOLD_MS, type HoldEnd, holdRequest, settled } from "../_events.ts";
import { PagingCapError } from "../../lib/paging/errors.ts";
import { withSandbox } from "./_helpers.ts";

Deno.test("orders: a per-call signal cancels the page in flight and the one read ahead", async () => {
  const signals: AbortSignal[] = [];
  const ends: HoldEnd[] = [];
  const controller = new AbortController();
  let pages = 0;
  const slow: typeof fetch = async (input, init) => {
    // Pages after the first are held until cancelled (or the bound, after which none is).
    if (pages++ > 0 && !ends.includes("elapsed")) {
      signals.push(init!.signal!);
      // The user stops the read once the second page is in flight.
      if (pages === 2) queueMicrotask(() => controller.abort(new Error("stopped by the user")));
      await holdRequest(init!.signal, ends);
    }
    return fetch(input, init);
  };
  await withSandbox(async ({ sg }) => {
    const error = await sg.orders({ orderBy: "id", signal: controller.signal }).catch((e) => e);
    assert.equal(error.message, "stopped by the user");
    assert.ok(signals.length >= 1, "the second page was requested");
    assert.ok(signals.every((s) => s.aborted), "and cancelled");
    await settled();
    assert.deepEqual(ends, signals.map(() => "aborted"), "ended by the abort, not by waiting");
  }, { fetch: slow, timeoutMs: BEYOND_HOLD_MS });
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
