import assert from "node:assert/strict";
import { PagingCapError } from "../../lib/paging/errors.ts";
import { BEYOND_HOLD_MS, type HoldEnd, holdRequest, settled } from "../_events.ts";
import type { ProgressEvent } from "../../lib/progress/progress.ts";
import type { SearchFilters } from "../../lib/expressions/mod.ts";
import { withSandbox } from "./_helpers.ts";

Deno.test("searchAll returns exactly total unique rows, discovering the page size", async () => {
  const events: ProgressEvent[] = [];
  await withSandbox(async ({ sandbox, client, urls, warnings }) => {
    const filters: SearchFilters = { emotion: ["哀", "喜"], valence: "negative" };
    const { total } = await client.search({ ...filters, limit: 0 });
    urls.length = 0;
    const all = await client.searchAll(filters);
    assert.equal(all.numRows(), total);
    assert.equal(new Set(all.array("id") as string[]).size, total);
    const expected = sandbox.expressions.filter((e) =>
      (e.emotion === "哀" || e.emotion === "喜") && e.valence === "negative"
    );
    assert.deepEqual(new Set(all.array("id") as string[]), new Set(expected.map((e) => e.id)));
    // The probe of 1,000 is refused with "between 0 and 100"; the rest use 100.
    const limits = urls.map((u) => Number(u.searchParams.get("limit")));
    assert.equal(limits[0], 1000);
    assert.ok(limits.slice(1, -1).every((l) => l === sandbox.maxLimit), String(limits));
    assert.equal(urls.length, 1 + Math.ceil(total / sandbox.maxLimit));
    assert.equal(warnings.length, 0);
    // The size is remembered: the next read does not probe again.
    urls.length = 0;
    await client.searchAll({ emotion: "驚" }, { maxRows: 150 });
    assert.equal(Number(urls[0].searchParams.get("limit")), 100);
    assert.equal(events.at(-1)?.state, "done");
    assert.equal(events.at(-1)?.done, 150);
  }, { client: { progress: (event) => events.push(event) } });
});

Deno.test("searchAll stops exactly at maxRows and keeps the service order", async () => {
  await withSandbox(async ({ client, urls }) => {
    const all = await client.searchAll({ keyword: "目" }, { maxRows: 230, pageSize: 100 });
    assert.equal(all.numRows(), 230);
    assert.deepEqual(urls.map((u) => Number(u.searchParams.get("limit"))), [100, 100, 30]);
    const first = await client.search({ keyword: "目", limit: 100, offset: 100 });
    assert.deepEqual(all.slice(100, 200).array("id"), first.hits.array("id"));
  });
});

Deno.test("searchAll learns a limit the service caps silently", async () => {
  const capping: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    if (Number(url.searchParams.get("limit")) > 40) url.searchParams.set("limit", "40");
    return fetch(url, init);
  };
  await withSandbox(async ({ client, urls }) => {
    const all = await client.searchAll({ bodyPart: "頬" });
    const { total } = await client.search({ bodyPart: "頬", limit: 0 });
    assert.equal(all.numRows(), total);
    const pages = urls.filter((url) => url.pathname === "/api/expressions"); // not /api/stats
    assert.equal(Number(pages[1].searchParams.get("limit")), 40);
  }, { client: { fetch: capping } });
});

Deno.test("searchAll says so when the service delivers fewer rows than its total", async () => {
  const short: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const answer = await fetch(url, init);
    const body = await answer.json();
    if (Number(url.searchParams.get("offset")) >= 200) body.hits = [];
    return Response.json(body);
  };
  await withSandbox(async ({ client, warnings }) => {
    const all = await client.searchAll({ emotion: "怒" }, { pageSize: 100 });
    assert.equal(all.numRows(), 200);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /reported \d+ expressions but delivered 200 unique rows/);
  }, { client: { fetch: short } });
});

Deno.test("searchAll drops repeated rows and says the order shifted", async () => {
  const shifting: typeof fetch = (input, init) => {
    const url = new URL(String(input));
    const offset = Number(url.searchParams.get("offset"));
    if (offset > 0) url.searchParams.set("offset", String(offset - 5));
    return fetch(url, init);
  };
  await withSandbox(async ({ client, warnings }) => {
    const all = await client.searchAll({ emotion: "安" }, { pageSize: 50 });
    const ids = all.array("id") as string[];
    assert.equal(new Set(ids).size, ids.length);
    assert.match(warnings.join("\n"), /repeated rows skipped; the order shifted/);
  }, { client: { fetch: shifting } });
});

Deno.test("pacing: measured intervals never fall below the configured minimum", async () => {
  const starts: number[] = [];
  const timed: typeof fetch = (input, init) => {
    starts.push(performance.now());
    return fetch(input, init);
  };
  await withSandbox(async ({ client }) => {
    const all = await client.searchAll({ emotion: "好" }, { pageSize: 40 });
    assert.ok(all.numRows() > 100);
    assert.ok(starts.length >= 4);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    for (const gap of gaps) assert.ok(gap >= 80, `gap ${gap.toFixed(1)} ms below 80 ms`);
  }, { client: { fetch: timed, minIntervalMs: 80, concurrency: 1 } });
});

for (const header of [true, false]) {
  Deno.test(`a 429 is waited out (${header ? "Retry-After" : "body only"})`, async () => {
    await withSandbox(async ({ sandbox, client }) => {
      const started = performance.now();
      const all = await client.searchAll({ emotion: "驚" }, { pageSize: 100 });
      const { total } = await client.search({ emotion: "驚", limit: 0 });
      assert.equal(all.numRows(), total);
      const limited = sandbox.requests.filter((r) => r.status === 429);
      assert.ok(limited.length >= 1);
      assert.ok(performance.now() - started >= 900);
    }, { sandbox: { rateLimit: { requests: 3, windowMs: 1000, retryAfterHeader: header } } });
  });
}

Deno.test("searchAll: a per-call signal cancels the page in flight and those read ahead", async () => {
  const signals: AbortSignal[] = [];
  const ends: HoldEnd[] = [];
  const controller = new AbortController();
  const slowFetch: typeof fetch = async (input, init) => {
    const offset = Number(
      new URL(String(input instanceof Request ? input.url : input)).searchParams.get("offset"),
    );
    // Pages after the first are held until cancelled (or the bound, after which none is).
    if (offset > 0 && !ends.includes("elapsed")) {
      signals.push(init!.signal!);
      // The user stops the read once two pages after the first are in flight.
      if (signals.length === 2) {
        queueMicrotask(() => controller.abort(new Error("stopped by the user")));
      }
      await holdRequest(init!.signal, ends);
    }
    return fetch(input, init);
  };
  await withSandbox(async ({ client }) => {
    const error = await client.searchAll({}, { pageSize: 100, signal: controller.signal })
      .catch((e) => e);
    assert.equal(error.message, "stopped by the user");
    assert.ok(signals.length >= 2, `${signals.length} pages were read ahead`);
    assert.ok(signals.every((s) => s.aborted), "every page in flight was cancelled");
    await settled();
    assert.deepEqual(ends, signals.map(() => "aborted"), "ended by the abort, not by waiting");
  }, { client: { fetch: slowFetch, timeoutMs: BEYOND_HOLD_MS } });
});

Deno.test("searchAll: the page cap names itself and how to raise it", async () => {
  await withSandbox(async ({ client, urls }) => {
    const error = await client.searchAll({}, { pageSize: 50, maxPages: 3 }).catch((e) => e);
    assert.ok(error instanceof PagingCapError, String(error));
    assert.match(error.message, /cap of 3 pages \(maxPages\)/);
    assert.match(error.message, /searchAll\(\)/);
    assert.ok(urls.length <= 4, `${urls.length} requests`);
  });
});
