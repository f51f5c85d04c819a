/**
 * The one page loop of tidepool. An adapter declares its cursor kind, how to
 * fetch a page and how to read it; the walk reads ahead within the client's
 * pacing, cancels what is no longer needed, detects repeated pages and
 * cursor cycles, stops a cursor that advances over pages bringing nothing
 * new, enforces the caps, restarts when the adapter can recover, reports
 * progress and says when rows fall short of the reported total.
 *
 * @module
 */

import type { ProgressTask } from "../progress/progress.ts";
import { TidepoolError } from "../errors/errors.ts";
import { type CallTrace, noteTrace, traceApart } from "../table/call_trace.ts";
import { PagingCapError, PagingError } from "./errors.ts";
import { ReadAhead } from "./_read_ahead.ts";
import { eventLoopTurns } from "./_event_loop_turn.ts";
import { abortable } from "./_abortable.ts";
import type { PagedReadOptions, Pager, WalkPage, WalkState } from "./types.ts";

/** What the walk reports to: an `HttpClient` serves. */
export interface WalkReporter {
  /** Starts a progress task. */
  progress(label: string, options?: { unit?: string; total?: number }): ProgressTask;
  /** Shows a warning. */
  warn(message: string): void;
}

const DEFAULT_MAX_PAGES = 100_000;
const DEFAULT_MAX_ROWS = 10_000_000;
const DEFAULT_MAX_RESTARTS = 5;
const DEFAULT_MAX_EMPTY_PAGES = 50;

/**
 * Walks every page of a paged read, handing on each page's rows.
 *
 * Read-ahead: a page whose cursor is known before the one in hand is read
 * (offset or page number with a known total) is requested while that one
 * is awaited, up to `readAhead` pages. A cursor the page itself names is
 * requested one macrotask after the page is handed on, so a caller that
 * stops at once (a `break`) sends nothing more, and one that works on the
 * page overlaps with the next request; with `eager` (the adapter builds a
 * table itself) it is requested before the page is handed on; with
 * `onDemand` nothing is read ahead, each page is requested when the caller
 * asks for it. Stopping, failing or aborting cancels every page in flight.
 *
 * @param pager The adapter's cursor kind, fetch and reader.
 * @param reporter Where progress and warnings go (the adapter's HttpClient).
 * @param options The per-call signal and caps.
 * @returns The pages, in order.
 *
 * @example Three pages of a made-up numbered list
 * ```ts
 * import { pageNumberCursor } from "./cursors.ts";
 * const rows = Array.from({ length: 25 }, (_, i) => i);
 * const pager = {
 *   label: "numbers",
 *   cursor: pageNumberCursor(10),
 *   fetch: (page: number) => Promise.resolve(rows.slice((page - 1) * 10, page * 10)),
 *   read: (page: number[]) => ({ rows: page, total: 25 }),
 * };
 * const reporter = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };
 * let count = 0;
 * for await (const page of walkPages(pager, reporter)) count += page.rows.length;
 * console.log(count); // 25
 * ```
 */
export async function* walkPages<C, P, R>(
  pager: Pager<C, P, R>,
  reporter: WalkReporter,
  options: PagedReadOptions = {},
): AsyncGenerator<WalkPage<R>, WalkState> {
  const maxPages = cap(options.maxPages, DEFAULT_MAX_PAGES, "maxPages", pager.label);
  const maxRows = cap(options.maxRows, DEFAULT_MAX_ROWS, "maxRows", pager.label);
  const maxRestarts = pager.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const maxEmpty = pager.maxEmptyPages ?? DEFAULT_MAX_EMPTY_PAGES;
  const window = Math.max(1, Math.floor(pager.readAhead ?? 1));
  const kind = pager.cursor;
  const counted = pager.count ?? "rows";
  // Stops the pages in flight when the walk ends in any way (done, break, throw).
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  // Each page is traced apart and noted when taken, so a page read ahead
  // counts for the step that hands it on, not for the one that requested it.
  const ahead = new ReadAhead<C, { value: P; trace: CallTrace }>(
    (cursor, s) => traceApart(() => pager.fetch(cursor, s)),
    signal,
  );
  const state: WalkState = { pages: 0, rows: 0, received: 0, restarts: 0 };
  const task = reporter.progress(pager.label, { unit: pager.unit ?? "rows" });
  let cursors = new Set<string>();
  let prints = new Map<string, number>();
  let fruitless = 0; // restarts in a row without a new row
  // Pages in a row whose cursor advanced but which brought no new row, and
  // how many are allowed: more after a restart, whose window repeats.
  let empty = 0;
  let emptyAllowed = maxEmpty;
  let stopped: string | undefined;
  let deferred: ReturnType<typeof setTimeout> | undefined;
  const turns = eventLoopTurns();
  /**
   * Requests the cursors after `from` that can be told now, up to the
   * window and never past the page cap (`claimed`: pages read or being read).
   * Returns how many requests it sent (a cursor already in flight is not sent again).
   */
  const plan = (from: C | null, withFrom: boolean, claimed: number): number => {
    let sent = 0;
    let cursor = from;
    if (cursor !== null && !withFrom) cursor = kind.predict?.(cursor, state) ?? null;
    while (cursor !== null && ahead.size < window && claimed + ahead.size < maxPages) {
      const key = kind.key(cursor);
      if (cursors.has(key)) break; // a cycle: reported when the walk gets there
      if (ahead.request(key, cursor)) sent++;
      cursor = kind.predict?.(cursor, state) ?? null;
    }
    return sent;
  };
  let cursor: C | null = kind.first;
  try {
    while (cursor !== null) {
      clearTimeout(deferred);
      options.signal?.throwIfAborted();
      if (state.pages >= maxPages) {
        throw new PagingCapError(pager.label, {
          cap: "maxPages",
          limit: maxPages,
          call: pager.call,
        });
      }
      const key = kind.key(cursor);
      if (cursors.has(key)) {
        throw new PagingError(
          `${pager.label} named the ${kind.name} ${
            short(key)
          } a second time: the pages go round in a cycle`,
          "cursorCycle",
          { hint: "The service loops; report it to its operator, and narrow the query meanwhile" },
        );
      }
      cursors.add(key);
      let page: P;
      try {
        const pending = ahead.take(key, cursor);
        if (!pager.onDemand) plan(cursor, false, state.pages + 1);
        const taken = await abortable(pending, signal);
        // The next page is requested: let it go out before this one is read.
        if (ahead.size > 0) await turns.turn();
        noteTrace(taken.trace);
        page = taken.value;
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (!pager.restart || !pager.restartOn?.(error, cursor)) throw error;
        if (++fruitless > maxRestarts) {
          throw new PagingError(
            `${pager.label} gave up after ${maxRestarts} restarts in a row without a new row`,
            "restartLimit",
            {
              details: error instanceof TidepoolError ? error.shortMessage : String(error),
              hint: "The service keeps failing at the same place; try again later or report it",
              cause: error,
            },
          );
        }
        const restart = await pager.restart(cursor, state);
        state.restarts++;
        empty = 0;
        emptyAllowed = maxEmpty + state.pages;
        ahead.clear();
        cursors = new Set();
        prints = new Map();
        cursor = restart;
        continue;
      }
      state.pages++;
      const print = pager.fingerprint?.(page);
      if (print) {
        const earlier = prints.get(print);
        if (earlier !== undefined) {
          const said = `page ${state.pages} repeated page ${earlier}`;
          if (pager.onRepeat !== "stop") {
            throw new PagingError(
              `${pager.label} stopped: ${said} (the service ignored the ${kind.name})`,
              "repeatedPage",
              { hint: "The service does not page as asked; report it to its operator" },
            );
          }
          stopped = `${said} (the service ignores paging)`;
          break;
        }
        prints.set(print, state.pages);
      }
      const read = pager.read(page, cursor, state);
      if (read.rows.length > 0) fruitless = 0;
      state.received += read.received ?? read.rows.length;
      state.total ??= read.total;
      state.rows += read.rows.length;
      if (state.rows > maxRows) {
        throw new PagingCapError(pager.label, { cap: "maxRows", limit: maxRows, call: pager.call });
      }
      const next: C | null = read.done ? null : kind.advance(cursor, read, state);
      if (read.rows.length > 0) {
        empty = 0;
        emptyAllowed = maxEmpty;
      } else if (next !== null && ++empty > emptyAllowed) {
        throw new PagingError(
          `${pager.label} stopped: ${empty} pages in a row brought no new row while the ${kind.name} kept advancing`,
          "noNewRows",
          {
            hint:
              "The service repeats itself or pages past its data; report it to its operator, and narrow the query meanwhile (a set, a window, a filter)",
          },
        );
      }
      task.update(state[counted], { total: state.total, detail: `page ${state.pages}` });
      if (next !== null) {
        const from = next;
        // Requested after the caller has had a turn with this page, unless
        // the caller is the adapter itself.
        if (pager.eager) {
          // The adapter turns this page into columns at once, without
          // giving the event loop a turn: let a request just sent go out first.
          if (plan(from, true, state.pages) > 0) await turns.turn();
        } else if (!pager.onDemand) deferred = setTimeout(() => plan(from, true, state.pages), 0);
      }
      // An empty page before the end (a service's page of nothing but a cursor, or of rows
      // all seen before) is not handed on: every page a caller gets has rows, or is the last.
      if (read.rows.length > 0 || next === null) {
        yield { rows: read.rows, page: state.pages, last: next === null, state: { ...state } };
      }
      cursor = next;
    }
    const warning = pager.shortfall
      ? pager.shortfall(state, stopped)
      : defaultShortfall(pager.label, state, counted, stopped);
    if (warning) reporter.warn(warning);
    task.finish(pager.summary?.(state) ?? `${state.pages} pages`);
    return state;
  } catch (error) {
    task.fail(error instanceof TidepoolError ? error.shortMessage : undefined);
    throw error;
  } finally {
    clearTimeout(deferred);
    stop.abort();
    ahead.clear();
    turns.release();
  }
}

function defaultShortfall(
  label: string,
  state: WalkState,
  counted: "rows" | "received",
  stopped: string | undefined,
): string | undefined {
  const got = state[counted];
  if (state.total === undefined || got >= state.total) return undefined;
  return `${label}: the service reported ${state.total} but ${got} arrived` +
    (stopped ? ` (${stopped})` : "") + "; the table holds what arrived";
}

function cap(value: number | undefined, fallback: number, name: string, label: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 1)) {
    throw new TidepoolError(`Cannot read ${label}: ${name} must be 1 or more`, {
      hint: `Pass ${name} as a whole number, or Infinity for no cap`,
    });
  }
  return value;
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Runs a walk to its end, handing each page's rows on, and gives the
 * walk's final counts (for adapters that report pages and rows).
 *
 * @param walk A walk started by {@linkcode walkPages}.
 * @param onRows Receives each page's rows, in order.
 * @returns The walk's counts at its end.
 *
 * @example Counting rows and pages
 * ```ts
 * import { namedCursor } from "./cursors.ts";
 * const pager = {
 *   label: "two pages",
 *   cursor: namedCursor<number>("link", 1),
 *   fetch: (page: number) => Promise.resolve(page),
 *   read: (page: number) => ({ rows: [page], next: page < 2 ? page + 1 : null }),
 * };
 * const reporter = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };
 * const state = await drainPages(walkPages(pager, reporter), () => {});
 * console.log(state.pages, state.rows); // 2 2
 * ```
 */
export async function drainPages<R>(
  walk: AsyncGenerator<WalkPage<R>, WalkState>,
  onRows: (rows: readonly R[]) => void,
): Promise<WalkState> {
  let step = await walk.next();
  while (!step.done) {
    onRows(step.value.rows);
    step = await walk.next();
  }
  return step.value;
}
