/**
 * The page loop behind every subgraph table: pages of 1,000 on a cursor,
 * never `skip`, all pinned to one block.
 *
 * - Ordered by `id`: an `id_gt` (`id_lt` descending) cursor.
 * - Ordered by another field F: an `F_gte` (`F_lte`) cursor from the last
 *   value seen, dropping rows of that value already emitted (tracked by id).
 *   When a whole page holds one value (1,000 or more rows share it), a
 *   `_gte` cursor cannot move past it, so the loop reads that value alone
 *   on an `id` cursor (`F: v, id_gt: …`), then goes on with `F_gt: v`.
 *   Nothing depends on how the server orders ties.
 *
 * @module
 */

import { pageDocument, selectionSet } from "./_document.ts";
import { readMeta } from "./_staleness.ts";
import { compareValues, type WhereFilter, withBounds } from "./_where.ts";
import type { SubgraphMeta } from "./subgraph_info.ts";

/** The largest page The Graph serves. */
export const PAGE_SIZE = 1000;

/** What the loop needs. */
export interface PageLoopOptions {
  entity: string;
  typeName: string;
  /** Field paths to select; `id` and the orderBy field are added when missing. */
  fields: readonly string[];
  where: WhereFilter;
  orderBy: string;
  orderDirection: "asc" | "desc";
  /** Pin to this block; default the head reported by `_meta` with the first page. */
  block?: number;
  pageSize?: number;
}

/** What the loop hands back besides the rows. */
export interface PageLoopState {
  meta: SubgraphMeta | null;
  block: number | null;
  pages: number;
  rows: number;
}

type Row = Record<string, unknown>;
type Send = (
  document: string,
  variables: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/**
 * Reads every row, calling `onFirstPage` once `_meta` is known (it may
 * throw to stop) and `onPage` with each page of new rows in order.
 */
export async function pageLoop(
  send: Send,
  options: PageLoopOptions,
  hooks: {
    onFirstPage: (state: PageLoopState, empty: boolean) => void;
    onPage: (rows: Row[], state: PageLoopState) => void;
  },
): Promise<PageLoopState> {
  const first = options.pageSize ?? PAGE_SIZE;
  const asc = options.orderDirection !== "desc";
  const byId = options.orderBy === "id";
  const field = options.orderBy;
  const paths = [...options.fields];
  if (!paths.includes("id")) paths.push("id");
  if (!byId && !paths.includes(field)) paths.push(field);
  const selection = selectionSet(paths);
  const state: PageLoopState = { meta: null, block: options.block ?? null, pages: 0, rows: 0 };

  const fetchPage = async (where: WhereFilter, orderBy: string): Promise<Row[]> => {
    const isFirst = state.pages === 0;
    const pinned = state.block !== null;
    const document = pageDocument({
      entity: options.entity,
      typeName: options.typeName,
      selection,
      pinned,
      withMeta: isFirst,
    });
    const variables: Record<string, unknown> = {
      first,
      where,
      orderBy,
      orderDirection: options.orderDirection,
    };
    if (pinned) variables.block = { number: state.block };
    const data = await send(document, variables);
    state.pages++;
    const rows = Array.isArray(data.rows) ? data.rows as Row[] : [];
    if (isFirst) {
      state.meta = readMeta(data._meta);
      // Pin every later page to the block the first page was read at.
      if (state.block === null && state.meta) state.block = state.meta.block;
      hooks.onFirstPage(state, rows.length === 0);
    }
    return rows;
  };
  const emit = (rows: Row[]) => {
    state.rows += rows.length;
    hooks.onPage(rows, state);
  };
  const gt = asc ? "_gt" : "_lt";
  const gte = asc ? "_gte" : "_lte";

  /** Starts a page request now; a failure surfaces where it is awaited. */
  const ahead = (where: WhereFilter, orderBy: string) => {
    const page = fetchPage(where, orderBy);
    page.catch(() => {}); // handled by the await below; never unhandled if the loop stops early
    return page;
  };

  if (byId) {
    // The next cursor is known as soon as a page arrives, so its request
    // goes out before this page's rows are turned into table columns.
    let pending = ahead(options.where, "id");
    for (;;) {
      const rows = await pending;
      const full = rows.length >= first;
      if (full) {
        const cursor = String(rows[rows.length - 1].id);
        pending = ahead(withBounds(options.where, { [`id${gt}`]: cursor }), "id");
      }
      emit(rows);
      if (!full) return state;
    }
  }

  // Ordered by another field: a value cursor with de-duplication by id.
  let boundary: unknown = undefined; // last value emitted
  let seen = new Set<string>(); // ids emitted with that value
  let strict = false; // next page starts strictly after the boundary
  const valueOf = (row: Row) => row[field];
  let prefetched: Promise<Row[]> | undefined;
  for (;;) {
    const where = boundary === undefined
      ? options.where
      : withBounds(options.where, { [`${field}${strict ? gt : gte}`]: boundary });
    const rows = await (prefetched ?? fetchPage(where, field));
    prefetched = undefined;
    // A full page that ends on a new value: the next page starts at that
    // value (`_gte`), so its request can go out before this page is used.
    const lastValue = rows.length >= first ? valueOf(rows[rows.length - 1]) : undefined;
    if (lastValue !== undefined && compareValues(valueOf(rows[0]), lastValue) !== 0) {
      prefetched = ahead(withBounds(options.where, { [`${field}${gte}`]: lastValue }), field);
    }
    const fresh: Row[] = [];
    for (const row of rows) {
      const value = valueOf(row);
      const id = String(row.id);
      if (boundary !== undefined && compareValues(value, boundary) === 0) {
        if (seen.has(id)) continue;
      } else {
        boundary = value;
        seen = new Set();
      }
      seen.add(id);
      fresh.push(row);
    }
    emit(fresh);
    strict = false;
    if (rows.length < first) return state;
    const last = valueOf(rows[rows.length - 1]);
    if (compareValues(valueOf(rows[0]), last) !== 0) continue;
    // A full page of one value: read the rest of that value on an id cursor.
    let cursor: string | undefined;
    for (;;) {
      const bounds: WhereFilter = { [field]: last };
      if (cursor !== undefined) bounds[`id${gt}`] = cursor;
      const tie = await fetchPage(withBounds(options.where, bounds), "id");
      const tieFresh = tie.filter((row) => !seen.has(String(row.id)));
      for (const row of tieFresh) seen.add(String(row.id));
      emit(tieFresh);
      if (tie.length < first) break;
      cursor = String(tie[tie.length - 1].id);
    }
    boundary = last;
    strict = true;
  }
}
