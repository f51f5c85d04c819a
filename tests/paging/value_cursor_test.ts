import assert from "node:assert/strict";
import {
  type PagedReadOptions,
  PagingCapError,
  PagingError,
  walkPages,
} from "../../lib/paging/mod.ts";
import { sleep } from "../../lib/http/sleep.ts";
import { subgraphPager } from "../../lib/subgraph/_paginate.ts";

/**
 * The value cursor with ties (subgraph `id_gt`, `F_gte`, `F: v, id_gt`)
 * against an in-memory entity: ids `r000`..., `score` shared by runs of
 * rows. Faults: `ignoreWhere` (every page is the first), `backToTen` (the
 * third page ends on the last id of the first), `slowMs` (pages after the first).
 */
interface Fault {
  ignoreWhere?: boolean;
  backToTen?: boolean;
  slowMs?: number;
  /** Called as each request arrives, with its index (0 for the first). */
  onRequest?: (index: number) => void;
}

type Row = { id: string; score: number };
const rows: Row[] = Array.from({ length: 95 }, (_, i) => ({
  id: `r${String(i).padStart(3, "0")}`,
  score: Math.floor(i / 7), // runs of 7 equal scores
}));
// Two runs longer than a page (10): the tie cursor is needed.
for (const row of rows.slice(40, 65)) row.score = 100;

function entity(fault: Fault = {}) {
  const requests: Record<string, unknown>[] = [];
  const cancelled: number[] = [];
  const send = async (
    _document: string,
    variables: Record<string, unknown>,
    signal: AbortSignal,
  ) => {
    const index = requests.push(variables) - 1;
    fault.onRequest?.(index);
    if (fault.slowMs && index > 0) {
      await sleep(fault.slowMs, signal).catch((error) => {
        cancelled.push(index);
        throw error;
      });
    }
    const where = (fault.ignoreWhere ? {} : variables.where) as Record<string, unknown>;
    const orderBy = variables.orderBy as "id" | "score";
    const match = rows.filter((row) =>
      Object.entries(where).every(([key, value]) => {
        const [field, op] = key.split("_") as ["id" | "score", string | undefined];
        const v = row[field];
        return op === "gt"
          ? v > (value as string | number)
          : op === "gte"
          ? v >= (value as string | number)
          : v === value;
      })
    ).sort((
      a,
      b,
    ) => (a[orderBy] < b[orderBy] ? -1 : a[orderBy] > b[orderBy] ? 1 : a.id < b.id ? -1 : 1));
    let page = match.slice(0, variables.first as number);
    if (fault.backToTen && index === 2) page = [...rows.slice(21, 30), rows[9]];
    return {
      rows: page,
      _meta: { block: { number: 100, timestamp: 0, hash: "0x" }, hasIndexingErrors: false },
    };
  };
  return { send, requests, cancelled };
}

const silent = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };

async function read(orderBy: "id" | "score", fault: Fault = {}, options: PagedReadOptions = {}) {
  const service = entity(fault);
  const { pager } = subgraphPager(
    service.send,
    {
      entity: "things",
      typeName: "Thing",
      fields: ["id", "score"],
      where: {},
      orderBy,
      orderDirection: "asc",
      pageSize: 10,
    },
    "things",
    () => {},
  );
  const ids: string[] = [];
  const sizes: number[] = [];
  const error = await (async () => {
    for await (const page of walkPages(pager, silent, options)) {
      ids.push(...page.rows.map((row) => String(row.id)));
      sizes.push(page.rows.length);
    }
  })().catch((e) => e);
  return { ids, sizes, error, ...service };
}

for (const orderBy of ["id", "score"] as const) {
  Deno.test(`value cursor by ${orderBy}: every row once, ties across pages included`, async () => {
    const { ids, sizes, error } = await read(orderBy);
    assert.equal(error, undefined);
    assert.equal(ids.length, rows.length);
    assert.equal(new Set(ids).size, rows.length);
    // A request whose rows were all seen before (a tie page) hands on no empty page.
    assert.ok(sizes.slice(0, -1).every((size) => size > 0), String(sizes));
  });

  Deno.test(`value cursor by ${orderBy}: a server ignoring the cursor ends in a clear error`, async () => {
    const { error, requests } = await read(orderBy, { ignoreWhere: true });
    assert.ok(error instanceof PagingError, String(error));
    // The repeated page names the same next cursor: the walk does not send it again.
    assert.equal(error.code, "cursorCycle");
    assert.ok(requests.length <= 3, `${requests.length} requests`);
  });

  Deno.test(`value cursor by ${orderBy}: the page cap names itself`, async () => {
    const { error, requests } = await read(orderBy, {}, { maxPages: 2 });
    assert.ok(error instanceof PagingCapError, String(error));
    assert.match(error.message, /cap of 2 pages \(maxPages\).*\n.*paginate\(\)/);
    assert.ok(requests.length <= 3);
  });

  Deno.test(`value cursor by ${orderBy}: aborting mid-walk stops at once`, async () => {
    const controller = new AbortController();
    // The user stops once page 2 is in flight (requested ahead, eager, while page 1
    // was read); it is held 30 s, so only a walk that never cancels it waits that out.
    const onRequest = (index: number) => {
      if (index === 1) queueMicrotask(() => controller.abort(new Error("stop")));
    };
    const { error, cancelled } = await read(orderBy, { slowMs: 30_000, onRequest }, {
      signal: controller.signal,
    });
    assert.equal(error.message, "stop");
    assert.deepEqual(cancelled, [1]);
  });
}

Deno.test("value cursor by id: a page that ends on an id seen before is a cycle", async () => {
  const { error, requests } = await read("id", { backToTen: true });
  assert.ok(error instanceof PagingError, String(error));
  assert.equal(error.code, "cursorCycle");
  assert.equal(requests.length, 3);
});
