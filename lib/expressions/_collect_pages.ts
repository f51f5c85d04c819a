/**
 * The paged read behind `searchAll` and `byBook`, on the paging engine: offset paging at the
 * largest page size the service accepts, paced by lib/http, with progress
 * from `total`, de-duplicated by `id` in first-seen order, stopping exactly
 * at `total` (or `maxRows`), and saying so when the service delivers fewer
 * rows than it announced.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { HttpClient, HttpResponse, QueryValue } from "../http/client.ts";
import { BotChallengeError, HttpError, ProtocolError, TidepoolError } from "../errors/errors.ts";
import { TableBuilder } from "../table/mod.ts";
import { EXPRESSION_COLUMNS } from "./columns.ts";
import { walkPages } from "../paging/walk_pages.ts";
import type { WireExpression } from "./types.ts";
import { SeenIds } from "./_seen_ids.ts";

/** Page sizes tried, largest first, when none is configured or remembered. */
const CANDIDATES = [1000, 500, 200, 100, 50];
/** Statuses that mean "this limit is too large" while probing. */
const TOO_LARGE = [400, 413, 422];

/** What one paged read needs. */
export interface CollectOptions {
  /** The endpoint. */
  path: string;
  /** Filters sent with every page. */
  query: Record<string, QueryValue>;
  /** Name shown in progress and messages. */
  label: string;
  /** The service's default page size, always accepted. */
  defaultSize: number;
  /** A configured page size; skips discovery. */
  pageSize?: number;
  /** Stop after this many rows. */
  maxRows?: number;
  /** Remembers the discovered size per endpoint. */
  memo: Map<string, number>;
  /** Throws when a page breaks a promise of the query (e.g. ignored filters). */
  checkPage?: (hits: WireExpression[]) => void;
  /** Cancels the read. */
  signal?: AbortSignal;
  /** Most requests before the read fails. */
  maxPages?: number;
}

/** The rows and the counts of a paged read. */
export interface CollectResult {
  table: ColumnTable;
  /** What the service announced. */
  total: number;
  /** Unique rows delivered. */
  rows: number;
  /** Requests made. */
  pages: number;
}

interface Page {
  hits: WireExpression[];
  total: number;
}

/** Reads `total` as a number or an Elasticsearch `{value}` object. */
export function readTotal(body: Record<string, unknown>, url: string): number {
  const raw = body.total;
  const value = typeof raw === "object" && raw !== null ? (raw as { value?: unknown }).value : raw;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ProtocolError(`Expression search answered without a usable total: ${url}`, {
      details: JSON.stringify(body).slice(0, 200),
      hint: "Check that the URL points at the expression search service",
    });
  }
  return value;
}

/** Reads a page body: `hits` must be an array of objects with an `id`. */
export function readPage(response: HttpResponse): Page & { body: Record<string, unknown> } {
  const body = response.json<Record<string, unknown>>();
  if (!body || typeof body !== "object" || !Array.isArray(body.hits)) {
    throw new ProtocolError(`Expression search answered without a hits array: ${response.url}`, {
      details: response.text().slice(0, 200),
      hint: "Check that the URL points at the expression search service",
    });
  }
  return { hits: body.hits as WireExpression[], total: readTotal(body, response.url), body };
}

/** Reads the maximum a service names in its error, e.g. `limit must be between 0 and 100`. */
export function statedMaximum(text: string): number | undefined {
  const match =
    /(?:between\s+\d+\s+and|at most|no more than|not exceed|<=|maximum(?:\s+(?:of|is))?|max(?:imum)?\s*[:=])\s*(\d+)/i
      .exec(text);
  return match ? Number(match[1]) : undefined;
}

/** An offset page; `probe` marks a request whose page size may still be refused. */
interface ExpressionCursor {
  offset: number;
  limit: number;
  probe: boolean;
}

/** Reads every page of a paged endpoint into one table, through the paging engine. */
export async function collectPages(
  http: HttpClient,
  options: CollectOptions,
): Promise<CollectResult> {
  const builder = new TableBuilder(EXPRESSION_COLUMNS);
  const pages = expressionPages(http, options);
  let page = await pages.next();
  while (!page.done) {
    builder.add(page.value);
    page = await pages.next();
  }
  return { table: builder.build(), ...page.value };
}

/** The counts of a paged read. */
export type PagesResult = Omit<CollectResult, "table">;

/**
 * The pages of a paged endpoint as {@linkcode collectPages} reads them: the
 * new rows of each page as the service sent them, for consumers that do not
 * hold the whole read.
 */
export async function* expressionPages(
  http: HttpClient,
  options: CollectOptions,
): AsyncGenerator<WireExpression[], PagesResult> {
  const { path, query, label, memo } = options;
  const maxRows = options.maxRows ?? Infinity;
  if (!(maxRows >= 0)) {
    throw new TidepoolError(`Cannot read ${label}: maxRows must be zero or more`, {
      hint: "Pass maxRows as a whole number, or leave it out for every row",
    });
  }
  // A size discovered by an earlier run is configuration kept in the
  // recording: replay sends no probe (its refused answers are never stored).
  const setting = `pageSize ${path}`;
  let remembered: Promise<void> | undefined;
  let size = options.pageSize ?? memo.get(path) ?? recorded(await http.recall(setting));
  if (size !== undefined && (!Number.isInteger(size) || size < 1)) {
    throw new TidepoolError(`Cannot read ${label}: pageSize must be a positive integer`, {
      hint: "Pass pageSize such as 100, or leave it out to use the largest the service accepts",
    });
  }
  const candidates = size === undefined ? [...CANDIDATES, options.defaultSize] : [];
  if (maxRows === 0) return { total: 0, rows: 0, pages: 0 };
  const seen = new SeenIds();
  let total: number | undefined;
  let offset = 0;
  let duplicates = 0;
  let totalChanged = false;
  /** The page at `at`, sized as the walk now knows; null when nothing more is wanted. */
  const pageAt = (at: number): ExpressionCursor | null => {
    const target = total === undefined ? maxRows : Math.min(total, maxRows);
    if (seen.size >= target || (total !== undefined && at >= total)) return null;
    const want = total === undefined ? Infinity : total - at;
    const probe = size === undefined;
    const pageLimit = probe ? candidates[0] : size!;
    const limit = Math.max(1, Math.min(pageLimit, want, maxRows - seen.size + duplicates));
    return { offset: at, limit, probe };
  };
  const pacing = http.pacing;
  const pages = walkPages<ExpressionCursor, HttpResponse, WireExpression>(
    {
      label,
      call: label === "byBook" ? "byBook()" : "searchAll()",
      readAhead: pacing.minIntervalMs === 0 ? pacing.concurrency : 1,
      eager: true,
      cursor: {
        name: "offset",
        first: pageAt(0)!,
        key: (c) => `${c.offset}:${c.limit}`,
        advance: (_cursor, read) => read.next ?? null,
        // Offset pages with a known size and total are independent: the next
        // ones are requested while this one is read (the pacer still spaces them).
        predict(c) {
          if (c.probe || size === undefined || total === undefined) return null;
          const end = Math.min(total, maxRows);
          const at = c.offset + c.limit;
          return at < end ? { offset: at, limit: Math.min(size, end - at), probe: false } : null;
        },
      },
      fetch: (c, signal) =>
        http.request({
          path,
          query: { ...query, limit: c.limit, offset: c.offset },
          acceptStatus: c.probe && candidates.length > 1 ? TOO_LARGE : undefined,
          signal,
        }),
      read(response, c) {
        if (response.status >= 400) {
          // The probe was refused: use the maximum the service names, or step down.
          const stated = statedMaximum(response.text());
          candidates.shift();
          if (stated !== undefined && stated > 0 && stated < c.limit) size = stated;
          return { rows: [], next: pageAt(offset) };
        }
        const page = readPage(response);
        options.checkPage?.(page.hits);
        if (total === undefined) total = page.total;
        else if (page.total !== total && !totalChanged) {
          totalChanged = true;
          http.warn(
            `${label}: the total changed from ${total} to ${page.total} while paging; the index changed, so rows may be missing or repeated`,
          );
        }
        if (c.probe) {
          // Fewer rows than asked with more to come: the service capped the limit
          // silently, and what it sent is its maximum. A full page, or the rest of
          // the results, means the limit was honoured; it is only remembered once
          // it was tried at full size.
          const rest = page.total - offset;
          const n = page.hits.length;
          if (n > 0 && n < c.limit && n < rest) size = n;
          else if (c.limit === candidates[0]) size = c.limit;
        }
        if (size !== undefined && options.pageSize === undefined && memo.get(path) !== size) {
          memo.set(path, size);
          remembered = http.remember(setting, size);
        }
        const { fresh, repeats } = newRows(page.hits, seen, Math.min(total, maxRows));
        duplicates += repeats;
        // An empty page: the service has nothing more.
        if (page.hits.length === 0) return { rows: fresh, total, next: null };
        offset += page.hits.length;
        return { rows: fresh, received: page.hits.length, total, next: pageAt(offset) };
      },
      shortfall: () => {
        const finalTotal = total ?? 0;
        if (seen.size >= Math.min(finalTotal, maxRows)) return undefined;
        return `${label}: the service reported ${finalTotal} expressions but delivered ${seen.size} unique rows` +
          (duplicates
            ? ` (${duplicates} repeated rows skipped; the order shifted between pages, so pass a sort)`
            : "") +
          "; the table holds what arrived";
      },
      summary: ({ pages }) => `${pages} requests`,
    },
    http,
    { signal: options.signal, maxPages: options.maxPages },
  );
  const next = () =>
    pages.next().catch((error) => {
      throw pagingError(error, label, offset);
    });
  let step = await next();
  while (!step.done) {
    yield step.value.rows as WireExpression[];
    step = await next();
  }
  await remembered;
  return { total: total ?? 0, rows: seen.size, pages: step.value.pages };
}

/**
 * The hits of a page whose id is new, until `limit` ids are seen in all, and
 * how many repeats were skipped. A page without repeats is returned as it
 * came, uncopied.
 */
function newRows(
  hits: WireExpression[],
  seen: SeenIds,
  limit: number,
): { fresh: WireExpression[]; repeats: number } {
  let fresh: WireExpression[] | undefined;
  let repeats = 0;
  let i = 0;
  for (; i < hits.length && seen.size < limit; i++) {
    const id = hits[i]?.id;
    if (typeof id === "string" && seen.add(id)) {
      fresh?.push(hits[i]);
    } else {
      repeats++;
      // The first repeat: every row before it was new.
      fresh ??= hits.slice(0, i);
    }
  }
  fresh ??= i === hits.length ? hits : hits.slice(0, i);
  return { fresh, repeats };
}

/** A recorded page size, if it is one. */
function recorded(value: unknown): number | undefined {
  return Number.isInteger(value) && (value as number) > 0 ? value as number : undefined;
}

/** A deep page refused: say what was reached and how to get the rest. */
function pagingError(error: unknown, label: string, offset: number): unknown {
  if (
    !(error instanceof HttpError) || error instanceof BotChallengeError || offset === 0 ||
    error.status >= 500 || error.status === 429
  ) {
    return error;
  }
  return new TidepoolError(
    `Cannot read ${label} past offset ${offset}: the service answered ${error.status}`,
    {
      details: error.serverMessage ?? error.body,
      hint:
        "The service may limit how deep offset paging goes; narrow the filters (by pid, emotion or valence) and read the parts one by one",
      cause: error,
    },
  );
}
