/**
 * A subgraph table read with several requests in flight: the values of the
 * order field are cut into ranges (`F_gte` / `F_lt`, `id_gte` / `id_lt` when
 * ordered by id), each walked by its own cursor exactly as the one-at-a-time
 * read walks the whole, all pinned to the block of the first page, and the
 * ranges are joined in order: the same rows in the same order as the
 * one-at-a-time read, from one consistent snapshot.
 *
 * The first page is asked for with `_meta` (it pins the block), beside one
 * row of the highest value; the values above the first page's last are cut
 * into as many ranges as requests may be in flight. A request slot that
 * falls idle takes the larger half of the range with the most rows left
 * (judged from the rows it has read per value), so a skewed field (most
 * orders in the last months) keeps every slot busy to the end.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { PagingCapError, PagingError } from "../paging/errors.ts";
import type { PagedReadOptions } from "../paging/types.ts";
import type { SubgraphContext } from "./_context.ts";
import { pageDocument, selectionSet } from "./_document.ts";
import {
  listAnswered,
  PAGE_SIZE,
  type PageLoopOptions,
  type PageLoopState,
  type SubgraphCursor,
  subgraphPager,
} from "./_paginate.ts";
import { cutPoints, middle, type ValueScale, valueScale } from "./_value_scale.ts";

type Row = Record<string, unknown>;

const DEFAULT_MAX_PAGES = 100_000;
const DEFAULT_MAX_ROWS = 10_000_000;

/** One range of the order field, walked by its own cursor. */
interface Range {
  /** Where its walk starts (the lowest value it holds, or none for the first). */
  from?: unknown;
  /** The bound it stays below, shared with its pager (narrowed when the range is cut). */
  bound: { below?: unknown };
  pager: ReturnType<typeof subgraphPager>["pager"];
  /** What its pager learnt: the first range's holds the block and `_meta`. */
  state: PageLoopState;
  cursor: SubgraphCursor | null;
  /** The highest value read so far. */
  reached?: unknown;
  /** Rows read, for the estimate of what is left. */
  rowsRead: number;
  pages: Row[][];
  keys: Set<string>;
  running: boolean;
}

/** What a parallel read hands back: every row in order, and what the walk saw. */
export interface RangeRead {
  rows: Row[];
  state: PageLoopState;
  pages: number;
}

/**
 * Reads every row of a table, up to `concurrency` requests in flight.
 *
 * @param context The subgraph's client.
 * @param loop The entity, fields, filter and order (ascending).
 * @param label What progress calls the read.
 * @param onFirstPage Runs once `_meta` is known (the staleness check).
 * @param caps The per-call signal and caps.
 * @returns The rows in the order the one-at-a-time read gives them.
 */
export async function readRanges(
  context: SubgraphContext,
  loop: PageLoopOptions,
  label: string,
  onFirstPage: (state: PageLoopState, empty: boolean) => void,
  caps: PagedReadOptions,
): Promise<RangeRead> {
  const field = loop.orderBy;
  const pageSize = loop.pageSize ?? PAGE_SIZE;
  const concurrency = context.http.pacing.concurrency;
  const maxPages = caps.maxPages ?? DEFAULT_MAX_PAGES;
  const maxRows = caps.maxRows ?? DEFAULT_MAX_ROWS;
  const stop = new AbortController();
  const signal = caps.signal ? AbortSignal.any([caps.signal, stop.signal]) : stop.signal;
  const send = (document: string, variables: Record<string, unknown>, s: AbortSignal) =>
    context.send(document, variables, s);
  const task = context.http.progress(label, { unit: "rows" });
  let pages = 0;
  let rows = 0;

  // The first page pins the block; the highest value, asked for at once beside it, tells
  // how far the ranges reach (a value past it, added meanwhile, falls in the last range).
  const first = newRange(undefined);
  const highest = send(
    pageDocument({
      entity: loop.entity,
      typeName: loop.typeName,
      selection: selectionSet(field === "id" ? ["id"] : ["id", field]),
      pinned: false,
      withMeta: false,
    }),
    { first: 1, where: loop.where, orderBy: field, orderDirection: "desc" },
    signal,
  ).then((data) => listAnswered(data, loop.entity)[0] as Row | undefined);
  highest.catch(() => {}); // awaited below, unless the first page fails first
  const ordered: Range[] = [first];
  let scale: ValueScale | undefined;
  let top: unknown;

  function newRange(from: unknown, below?: unknown, block?: number): Range {
    const bound = { below };
    const { pager, state } = subgraphPager(
      send,
      { ...loop, block: block ?? loop.block, range: bound },
      label,
      onFirstPage,
    );
    return {
      from,
      bound,
      pager,
      cursor: from === undefined ? pager.cursor.first : { at: "value", value: from, strict: false },
      rowsRead: 0,
      pages: [],
      keys: new Set(),
      running: false,
      state,
    };
  }
  const pinned = first.state;

  /** Reads one page of a range and moves its cursor on. */
  async function step(range: Range): Promise<void> {
    const cursor = range.cursor!;
    const key = JSON.stringify(cursor);
    if (range.keys.has(key)) {
      throw new PagingError(
        `${label} named the value ${key.slice(0, 80)} a second time: the pages go round in a cycle`,
        "cursorCycle",
        { hint: "The service loops; report it to its operator, and narrow the query meanwhile" },
      );
    }
    range.keys.add(key);
    if (++pages > maxPages) {
      throw new PagingCapError(label, { cap: "maxPages", limit: maxPages, call: "paginate()" });
    }
    const answer = await range.pager.fetch(cursor, signal);
    const read = range.pager.read(answer, cursor, { pages, rows, received: rows, restarts: 0 });
    range.pages.push([...read.rows]);
    range.rowsRead += read.rows.length;
    rows += read.rows.length;
    if (rows > maxRows) {
      throw new PagingCapError(label, { cap: "maxRows", limit: maxRows, call: "paginate()" });
    }
    if (read.rows.length > 0) range.reached = read.rows[read.rows.length - 1][field];
    range.cursor = read.done ? null : read.next ?? null;
    const { requests } = context.http.inFlight;
    task.update(rows, { detail: `${pages} pages, ${requests} requests in flight` });
  }

  /** The range with the most rows left by its own rate of rows per value, cut in two. */
  function steal(): Range | undefined {
    if (!scale) return undefined;
    let best: { range: Range; left: number; at: unknown } | undefined;
    for (const range of ordered) {
      if (!range.cursor || range.rowsRead === 0 || range.reached === undefined) continue;
      const start = range.from ?? ordered[0].pages[0]?.[0]?.[field];
      const end = range.bound.below ?? scale.fromBig(scale.toBig(top) + 1n);
      const span = Number(scale.toBig(range.reached) - scale.toBig(start));
      // Rows of one value so far tell nothing of how many the rest of the range holds.
      if (!(span > 0)) continue;
      const left = Number(scale.toBig(end) - scale.toBig(range.reached)) * range.rowsRead / span;
      // Worth a request of its own only when more than two pages are left.
      if (left < 2 * pageSize || (best && best.left >= left)) continue;
      const at = middle(scale, range.reached, end);
      if (at !== undefined) best = { range, left, at };
    }
    if (!best) return undefined;
    const taken = newRange(best.at, best.range.bound.below, pinned.block ?? undefined);
    best.range.bound.below = best.at;
    ordered.splice(ordered.indexOf(best.range) + 1, 0, taken);
    return taken;
  }

  /** One request slot: walks the next range not yet started, else takes half of a busy one. */
  async function slot(): Promise<void> {
    for (;;) {
      const range = ordered.find((r) => r.cursor && !r.running) ?? steal();
      if (!range) return;
      range.running = true;
      while (range.cursor) await step(range);
      range.running = false;
    }
  }

  try {
    first.running = true;
    await step(first);
    first.running = false;
    if (first.cursor) {
      const high = await highest;
      top = high?.[field];
      scale = first.reached !== undefined && top !== undefined
        ? valueScale(first.reached, top)
        : undefined;
      if (scale && concurrency > 1) {
        // As many ranges as slots, but no more than the first page's rows per value say
        // the rest fills: a small table is not cut into ranges of a few rows each.
        const lowest = first.pages[0][0][field];
        const read = Number(scale.toBig(first.reached) - scale.toBig(lowest));
        const left = read > 0
          ? Number(scale.toBig(top) - scale.toBig(first.reached)) * first.rowsRead / read
          : Infinity;
        const parts = Math.max(1, Math.min(concurrency, Math.ceil(left / pageSize)));
        const points = cutPoints(scale, first.reached, top, parts);
        let below: unknown = undefined;
        for (const point of points.toReversed()) {
          ordered.splice(1, 0, newRange(point, below, pinned.block ?? undefined));
          below = point;
        }
        first.bound.below = below;
      }
      await Promise.all(Array.from({ length: Math.max(1, concurrency) }, slot));
    }
    const all: Row[] = [];
    for (const range of ordered) for (const page of range.pages) all.push(...page);
    task.finish(`${pages} pages in ${ordered.length} ranges, block ${pinned.block}`);
    return { rows: all, state: pinned, pages };
  } catch (error) {
    task.fail(error instanceof TidepoolError ? error.shortMessage : undefined);
    if (caps.signal?.aborted) throw caps.signal.reason;
    throw error;
  } finally {
    stop.abort();
  }
}
