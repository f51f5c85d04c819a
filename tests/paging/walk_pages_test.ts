import assert from "node:assert/strict";
import {
  type CursorKind,
  namedCursor,
  type OffsetCursor,
  offsetCursor,
  type PagedReadOptions,
  pageNumberCursor,
  type Pager,
  PagingCapError,
  PagingError,
  walkPages,
} from "../../lib/paging/mod.ts";
import { Counter, within } from "../_events.ts";

/**
 * A made-up service of `count` numbered rows in pages of `size`, reachable
 * through every cursor kind. Faults: `ignore` (every page is the first),
 * `cycle` (the page after the second is the first again), `short` (the
 * reported total is 5 more than the rows).
 */
interface Fault {
  ignore?: boolean;
  cycle?: boolean;
  short?: boolean;
  /**
   * Milliseconds every page after the first takes (honours the signal): a
   * bound far beyond the microseconds a cancelled page takes to end, so only
   * a walk that never cancels waits it out (and fails on `cancelled`).
   */
  slowMs?: number;
}

interface Answer {
  rows: number[];
  total?: number;
  next?: string | null;
}

class Service {
  readonly requests: number[] = [];
  readonly cancelled: number[] = [];
  /** Counts the requests as they arrive, to wait for the n-th. */
  readonly arrived = new Counter();
  constructor(readonly count: number, readonly size: number, readonly fault: Fault = {}) {}

  /** The rows of page `index` (0-based), after the faults. */
  async page(index: number, signal: AbortSignal): Promise<Answer> {
    this.requests.push(index);
    this.arrived.add();
    if (this.fault.slowMs && index > 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, this.fault.slowMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          this.cancelled.push(index);
          reject(signal.reason);
        }, { once: true });
      });
    }
    signal.throwIfAborted();
    let at = index;
    if (this.fault.ignore) at = 0;
    if (this.fault.cycle) at = index % 2;
    const rows = Array.from(
      { length: Math.max(0, Math.min(this.size, this.count - at * this.size)) },
      (_, i) => at * this.size + i,
    );
    const more = (at + 1) * this.size < this.count;
    // Named cursors: the token names the page index the service means next.
    const nextIndex = this.fault.cycle ? (index + 1) % 2 : index + 1;
    return {
      rows,
      total: this.count + (this.fault.short ? 5 : 0),
      next: more ? `p${nextIndex}${this.fault.ignore ? `-${index}` : ""}` : null,
    };
  }
}

/** One pager per cursor kind over the same service. */
type Kind = "offset" | "page number" | "token" | "link";
const KINDS: Kind[] = ["offset", "page number", "token", "link"];

function pagerFor(kind: Kind, service: Service, readAhead = 1): Pager<unknown, Answer, number> {
  const read = (answer: Answer) => ({
    rows: answer.rows,
    total: answer.total,
    next: answer.next ?? null,
  });
  const base = {
    label: `numbers by ${kind}`,
    read,
    readAhead,
    call: "numbers()",
    fingerprint: (answer: Answer) => answer.rows.join(","),
  };
  if (kind === "offset") {
    return {
      ...base,
      cursor: offsetCursor(service.size) as CursorKind<unknown>,
      fetch: (c, signal) => service.page((c as OffsetCursor).offset / service.size, signal),
    };
  }
  if (kind === "page number") {
    return {
      ...base,
      cursor: pageNumberCursor(service.size) as CursorKind<unknown>,
      fetch: (c, signal) => service.page((c as number) - 1, signal),
    };
  }
  const first = kind === "token" ? "" : "https://list.example/p0";
  const index = (c: string) => Number(/p(\d+)/.exec(c)?.[1] ?? 0);
  return {
    ...base,
    cursor: namedCursor<string>(kind, first, (c) => c) as CursorKind<unknown>,
    fetch: (c, signal) => service.page(index(c as string), signal),
    read: (answer: Answer) => {
      const page = read(answer);
      const next = page.next === null
        ? null
        : kind === "link"
        ? `https://list.example/${page.next}`
        : page.next;
      return { ...page, next };
    },
  };
}

const silent = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };

async function collect(
  pager: Pager<unknown, Answer, number>,
  options: PagedReadOptions = {},
  warnings: string[] = [],
): Promise<number[]> {
  const rows: number[] = [];
  const reporter = { ...silent, warn: (m: string) => warnings.push(m) };
  for await (const page of walkPages(pager, reporter, options)) rows.push(...page.rows);
  return rows;
}

for (const kind of KINDS) {
  Deno.test(`paging by ${kind}: every row once, in order, with the fewest requests`, async () => {
    const service = new Service(25, 10);
    const rows = await collect(pagerFor(kind, service));
    assert.deepEqual(rows, Array.from({ length: 25 }, (_, i) => i));
    assert.equal(service.requests.length, 3);
  });

  Deno.test(`paging by ${kind}: a service that repeats the page ends in a clear error`, async () => {
    const service = new Service(1000, 10, { ignore: true });
    const error = await collect(pagerFor(kind, service)).catch((e) => e);
    assert.ok(error instanceof PagingError, String(error));
    assert.equal(error.code, "repeatedPage");
    assert.match(error.message, /page 2 repeated page 1/);
    assert.ok(service.requests.length <= 3, `${service.requests.length} requests`);
  });

  Deno.test(`paging by ${kind}: a cycle of pages ends in a clear error`, async () => {
    const service = new Service(1000, 10, { cycle: true });
    const error = await collect(pagerFor(kind, service)).catch((e) => e);
    assert.ok(error instanceof PagingError, String(error));
    // Numbered kinds see the content come round; named kinds see the cursor come round.
    // Numbered kinds see the content come round; a link list names a link
    // again before the content comes round; a token list starts without a
    // token, so its content comes round first.
    assert.equal(error.code, kind === "link" ? "cursorCycle" : "repeatedPage");
    assert.ok(service.requests.length <= 4, `${service.requests.length} requests`);
  });

  Deno.test(`paging by ${kind}: the page and row caps name themselves and how to raise them`, async () => {
    const pages = await collect(pagerFor(kind, new Service(100, 10)), { maxPages: 3 }).catch((e) =>
      e
    );
    assert.ok(pages instanceof PagingCapError);
    assert.equal(pages.cap, "maxPages");
    assert.match(pages.message, /cap of 3 pages \(maxPages\)/);
    assert.match(pages.message, /Pass \{ maxPages: 30 \}.*numbers\(\)/);
    const rows = await collect(pagerFor(kind, new Service(100, 10)), { maxRows: 15 }).catch((e) =>
      e
    );
    assert.ok(rows instanceof PagingCapError);
    assert.equal(rows.cap, "maxRows");
    assert.match(rows.message, /cap of 15 rows/);
  });

  Deno.test(`paging by ${kind}: fewer rows than the reported total are warned`, async () => {
    const warnings: string[] = [];
    const rows = await collect(pagerFor(kind, new Service(25, 10, { short: true })), {}, warnings);
    assert.equal(rows.length, 25);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /reported 30 but 25 arrived/);
  });

  Deno.test(`paging by ${kind}: aborting mid-walk stops at once and sends nothing more`, async () => {
    const service = new Service(100, 10);
    const controller = new AbortController();
    const seen: number[] = [];
    let sentBeforeAbort = 0;
    const error = await (async () => {
      for await (
        const page of walkPages(pagerFor(kind, service), silent, { signal: controller.signal })
      ) {
        seen.push(...page.rows);
        if (page.page === 2) {
          sentBeforeAbort = service.requests.length;
          controller.abort(new Error("enough"));
        }
      }
    })().catch((e) => e);
    assert.equal(error.message, "enough");
    assert.equal(seen.length, 20);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Only pages requested before the abort (read-ahead with a known total).
    assert.equal(service.requests.length, sentBeforeAbort);
    assert.ok(sentBeforeAbort <= 3);
  });

  Deno.test(`paging by ${kind}: aborting during read-ahead cancels the pages in flight`, async () => {
    const service = new Service(100, 10, { slowMs: 30_000 });
    const controller = new AbortController();
    const error = await (async () => {
      for await (
        const page of walkPages(pagerFor(kind, service, 3), silent, { signal: controller.signal })
      ) {
        // Wait until a page ahead went out, then abort while it is in flight.
        await within(service.arrived.reached(2), undefined);
        assert.ok(service.requests.length > 1, "a page was requested ahead");
        controller.abort(new Error("stop"));
        void page;
      }
    })().catch((e) => e);
    assert.equal(error.message, "stop");
    // Every page ahead ended by the abort, none by its 30 s.
    assert.deepEqual(service.cancelled.sort(), service.requests.filter((i) => i > 0).sort());
  });

  Deno.test(`paging by ${kind}: aborting while awaiting a page read ahead cancels it`, async () => {
    const service = new Service(100, 10, { slowMs: 5_000 });
    const controller = new AbortController();
    // Eager: page 2 is requested before page 1 is handed on.
    const pager = { ...pagerFor(kind, service), eager: true };
    const error = await (async () => {
      for await (const page of walkPages(pager, silent, { signal: controller.signal })) {
        // No await here: the walk takes page 2 (requested ahead) and waits for it,
        // held 5 s; the abort comes once this turn of the loop has ended.
        if (page.page === 1) setTimeout(() => controller.abort(new Error("stop")), 0);
      }
    })().catch((e) => e);
    assert.equal(error.message, "stop");
    assert.ok(service.cancelled.includes(1), `page 2 cancelled: ${service.cancelled}`);
    assert.deepEqual(service.cancelled.sort(), service.requests.filter((i) => i > 0).sort());
  });

  Deno.test(`paging by ${kind}: after a break nothing more is requested`, async () => {
    const service = new Service(100, 10);
    for await (const page of walkPages(pagerFor(kind, service), silent)) {
      if (page.page === 1) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Numbered kinds know no total before the first page, so nothing goes ahead of it.
    assert.deepEqual(service.requests, [0]);
  });
}

Deno.test("paging: read-ahead with a known total keeps the window full while a page is awaited", async () => {
  const service = new Service(100, 10, { slowMs: 10 });
  const inFlight: number[] = [];
  const pager = pagerFor("offset", service, 3);
  const fetch = pager.fetch;
  let active = 0;
  pager.fetch = async (c, s) => {
    active++;
    inFlight.push(active);
    try {
      return await fetch(c, s);
    } finally {
      active--;
    }
  };
  const rows = await collect(pager);
  assert.equal(rows.length, 100);
  assert.equal(service.requests.length, 10);
  assert.ok(Math.max(...inFlight) >= 3, `at most ${Math.max(...inFlight)} in flight`);
});

Deno.test("paging: a recoverable error restarts, and restarts without a new row are limited", async () => {
  const service = new Service(100, 10);
  let failures = 0;
  const pager: Pager<unknown, Answer, number> = {
    ...pagerFor("token", service),
    // The service forgets every token: page 2 always fails.
    fetch: (c, signal) => {
      if (c !== "") {
        failures++;
        return Promise.reject(new Error("badResumptionToken"));
      }
      return service.page(0, signal);
    },
    restartOn: () => true,
    restart: () => "",
    maxRestarts: 4,
  };
  const seen = new Set<number>();
  const wrapped = {
    ...pager,
    read: (a: Answer, c: unknown, s: Parameters<Pager<unknown, Answer, number>["read"]>[2]) => {
      const page = pager.read(a, c, s);
      const fresh = page.rows.filter((r) => !seen.has(r));
      fresh.forEach((r) => seen.add(r));
      return { ...page, rows: fresh };
    },
  };
  const error = await collect(wrapped).catch((e) => e);
  assert.ok(error instanceof PagingError, String(error));
  assert.equal(error.code, "restartLimit");
  assert.match(error.message, /gave up after 4 restarts/);
  assert.equal(failures, 5);
  assert.equal(service.requests.length, 5);
});

Deno.test("paging: progress reports every page, and the end", async () => {
  const events: string[] = [];
  const reporter = {
    progress: (label: string) => ({
      update: (done: number, o?: { total?: number; detail?: string }) =>
        events.push(`${label} ${done}/${o?.total} ${o?.detail}`),
      finish: (d?: string) => events.push(`done ${d}`),
      fail: () => events.push("failed"),
    }),
    warn() {},
  };
  for await (
    const _ of walkPages(pagerFor("page number", new Service(25, 10)), reporter)
  ) { /* read */ }
  assert.deepEqual(events, [
    "numbers by page number 10/25 page 1",
    "numbers by page number 20/25 page 2",
    "numbers by page number 25/25 page 3",
    "done 3 pages",
  ]);
});

Deno.test("paging: read-ahead never requests a page past the page cap", async () => {
  for (const kind of KINDS) {
    const service = new Service(1000, 10);
    const pager = { ...pagerFor(kind, service, 4), eager: true };
    const error = await collect(pager, { maxPages: 3 }).catch((e) => e);
    assert.ok(error instanceof PagingCapError, `${kind}: ${error}`);
    assert.equal(service.requests.length, 3, `${kind}: ${service.requests}`);
  }
});
