/**
 * The cursor kinds a paged read declares: offset and limit, page number,
 * opaque token, link-following, and a value cursor with ties.
 *
 * @module
 */

import type { CursorKind, PageRead, WalkState } from "./types.ts";

/** An offset cursor: where the page starts and how many rows it asks for. */
export interface OffsetCursor {
  /** Rows skipped. */
  offset: number;
  /** Rows asked for. */
  limit: number;
}

/**
 * The end of a numbered walk: a short or empty page, or as many rows kept as
 * the reported total (kept, not received: repeats across shifted pages do
 * not count towards the total).
 */
function ended(page: PageRead<unknown, unknown>, state: WalkState, asked: number): boolean {
  const arrived = page.received ?? page.rows.length;
  return arrived === 0 || arrived < asked ||
    (state.total !== undefined && state.rows >= state.total);
}

/**
 * Offset and limit: the next page starts where the rows that arrived end.
 * With a known total, the pages ahead are known before they are read.
 *
 * @param limit Rows per page.
 * @param offset The first offset; default 0.
 * @returns The cursor kind.
 *
 * @example Pages of 100 rows
 * ```ts
 * const kind = offsetCursor(100);
 * console.log(kind.first); // { offset: 0, limit: 100 }
 * ```
 */
export function offsetCursor(limit: number, offset = 0): CursorKind<OffsetCursor> {
  return {
    name: "offset",
    first: { offset, limit },
    key: (cursor) => `${cursor.offset}:${cursor.limit}`,
    advance(cursor, page, state) {
      if (ended(page, state, cursor.limit)) return null;
      const next = cursor.offset + (page.received ?? page.rows.length);
      const left = state.total === undefined ? Infinity : state.total - next;
      return { offset: next, limit: Math.min(cursor.limit, left) };
    },
    predict(cursor, state) {
      const next = cursor.offset + cursor.limit;
      if (state.total === undefined || next >= state.total) return null;
      return { offset: next, limit: Math.min(cursor.limit, state.total - next) };
    },
  };
}

/**
 * Page numbers: the next page is the next number until a short page or the
 * reported total. With a known total, the pages ahead are known.
 *
 * @param pageSize Rows per page, to tell a short (last) page.
 * @param first The first page number; default 1.
 * @returns The cursor kind.
 *
 * @example Pages numbered from 1
 * ```ts
 * const kind = pageNumberCursor(100);
 * console.log(kind.first); // 1
 * ```
 */
export function pageNumberCursor(pageSize: number, first = 1): CursorKind<number> {
  return {
    name: "page number",
    first,
    key: (page) => String(page),
    advance: (page, read, state) => ended(read, state, pageSize) ? null : page + 1,
    predict(page, state) {
      if (state.total === undefined) return null;
      return (page - first + 1) * pageSize < state.total ? page + 1 : null;
    },
  };
}

/**
 * A cursor the page names: an opaque token (OAI-PMH resumption tokens), a
 * link (ResourceSync `next`, index entries) or a value (GraphQL `id_gt`).
 * The page's `next` is followed; a cursor named twice is a cycle.
 *
 * @param name The kind's name in errors: `token`, `link`, `value`.
 * @param first The first cursor.
 * @param key What identifies a cursor; default its JSON.
 * @returns The cursor kind.
 *
 * @example Resumption tokens, starting without one
 * ```ts
 * const kind = namedCursor<string | undefined>("token", undefined, (token) => token ?? "");
 * console.log(kind.name); // "token"
 * ```
 */
export function namedCursor<C>(
  name: string,
  first: C,
  key: (cursor: C) => string = (cursor) => JSON.stringify(cursor) ?? "",
): CursorKind<C> {
  return {
    name,
    first,
    key,
    advance: (_cursor, page) => page.done ? null : page.next ?? null,
  };
}
