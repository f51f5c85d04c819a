/**
 * The cursor of every subgraph table, declared for the paging engine: pages
 * of 1,000 on a value cursor, never `skip`, all pinned to one block.
 *
 * - Ordered by `id`: an `id_gt` (`id_lt` descending) cursor.
 * - Ordered by another field F: an `F_gte` (`F_lte`) cursor from the last
 *   value seen, dropping rows of that value already emitted (tracked by id).
 *   When a whole page holds one value (1,000 or more rows share it), a
 *   `_gte` cursor cannot move past it, so the walk reads that value alone
 *   on an `id` cursor (`F: v, id_gt: …`), then goes on with `F_gt: v`.
 *   Nothing depends on how the server orders ties.
 *
 * @module
 */

import { ProtocolError } from "../errors/errors.ts";
import type { Pager, PageRead } from "../paging/types.ts";
import { pageDocument, selectionSet } from "./_document.ts";
import { readMeta } from "./_staleness.ts";
import { compareValues, type WhereFilter, withBounds } from "./_where.ts";
import type { SubgraphMeta } from "./subgraph_info.ts";

/** The largest page The Graph serves. */
export const PAGE_SIZE = 1000;

/** What the walk needs. */
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
  /**
   * Keeps the walk below a value of the order field (ascending only), read
   * at every request: a parallel read narrows a range it splits while the
   * range is being walked, and rows at or past the bound are then left to
   * the range that took them over.
   */
  range?: { below?: unknown };
}

/** What the walk learns besides the rows: the `_meta` of the first page and the pinned block. */
export interface PageLoopState {
  meta: SubgraphMeta | null;
  block: number | null;
}

type Row = Record<string, unknown>;
type Send = (
  document: string,
  variables: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/**
 * Where a page starts: the first page (with `_meta`), after an id, at or
 * after a value (`strict`: after it), or within one value after an id.
 */
export type SubgraphCursor =
  | { at: "start" }
  | { at: "id"; after: string }
  | { at: "value"; value: unknown; strict: boolean }
  | { at: "tie"; value: unknown; after?: string };

/**
 * The pager of one subgraph table. `onFirstPage` runs once `_meta` is known
 * (it may throw to stop the walk).
 */
export function subgraphPager(
  send: Send,
  options: PageLoopOptions,
  label: string,
  onFirstPage: (state: PageLoopState, empty: boolean) => void,
): { pager: Pager<SubgraphCursor, Row[], Row>; state: PageLoopState } {
  const first = options.pageSize ?? PAGE_SIZE;
  const asc = options.orderDirection !== "desc";
  const field = options.orderBy;
  const byId = field === "id";
  const paths = [...options.fields];
  if (!paths.includes("id")) paths.push("id");
  if (!byId && !paths.includes(field)) paths.push(field);
  const selection = selectionSet(paths);
  const state: PageLoopState = { meta: null, block: options.block ?? null };
  const gt = asc ? "_gt" : "_lt";
  const gte = asc ? "_gte" : "_lte";
  const valueOf = (row: Row) => row[field];
  const idOf = (row: Row) => String(row.id);
  let boundary: unknown = undefined; // last value emitted
  let seen = new Set<string>(); // ids emitted with that value

  /** The filter and order of a cursor, below the range's bound when it has one. */
  const query = (cursor: SubgraphCursor): { where: WhereFilter; orderBy: string } => {
    const bounded = unbounded(cursor);
    const below = options.range?.below;
    if (below !== undefined) bounded.where = withBounds(bounded.where, { [`${field}_lt`]: below });
    return bounded;
  };
  const unbounded = (cursor: SubgraphCursor): { where: WhereFilter; orderBy: string } => {
    switch (cursor.at) {
      case "start":
        return { where: options.where, orderBy: field };
      case "id":
        return { where: withBounds(options.where, { [`id${gt}`]: cursor.after }), orderBy: "id" };
      case "value":
        return {
          where: withBounds(options.where, {
            [`${field}${cursor.strict ? gt : gte}`]: cursor.value,
          }),
          orderBy: field,
        };
      case "tie": {
        const bounds: WhereFilter = { [field]: cursor.value };
        if (cursor.after !== undefined) bounds[`id${gt}`] = cursor.after;
        return { where: withBounds(options.where, bounds), orderBy: "id" };
      }
    }
  };

  const pager: Pager<SubgraphCursor, Row[], Row> = {
    label,
    call: "paginate()",
    // The table is built here: the next page goes out before this one's
    // rows are turned into columns.
    eager: true,
    cursor: {
      name: "value",
      first: { at: "start" },
      key: (cursor) => JSON.stringify(cursor),
      advance: (_cursor, page) => page.next ?? null,
    },
    async fetch(cursor, signal) {
      const isFirst = cursor.at === "start";
      const pinned = state.block !== null;
      const { where, orderBy } = query(cursor);
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
      const data = await send(document, variables, signal);
      const rows = listAnswered(data, options.entity);
      if (isFirst) {
        state.meta = readMeta(data._meta);
        // Pin every later page to the block the first page was read at.
        if (state.block === null && state.meta) state.block = state.meta.block;
        onFirstPage(state, rows.length === 0);
      }
      return rows;
    },
    // No page fingerprint: a `_gte` page of one value and the tie page after
    // it hold the same ids by design; a cursor named twice is the repeat guard.
    read(rows, cursor) {
      const below = options.range?.below;
      if (below === undefined) return readPage(rows, cursor);
      // The range was narrowed after this page was asked for: what lies past it is another's.
      const kept = rows.filter((row) => compareValues(valueOf(row), below) < 0);
      if (kept.length === rows.length) return readPage(rows, cursor);
      return { ...readPage(kept, cursor), next: null };
    },
    shortfall: () => undefined,
  };
  /** One page read: the rows not yet emitted and the cursor of the next page. */
  const readPage = (rows: Row[], cursor: SubgraphCursor): PageRead<Row, SubgraphCursor> => {
    const full = rows.length >= first;
    const last = rows.length ? rows[rows.length - 1] : undefined;
    if (byId) {
      return { rows, next: full ? { at: "id", after: idOf(last!) } : null };
    }
    if (cursor.at === "tie") {
      // Rows of the one value, in id order: only those not yet emitted.
      const fresh = rows.filter((row) => !seen.has(idOf(row)));
      for (const row of fresh) seen.add(idOf(row));
      return {
        rows: fresh,
        received: rows.length,
        next: full
          ? { at: "tie", value: cursor.value, after: idOf(last!) }
          : { at: "value", value: cursor.value, strict: true },
      };
    }
    const fresh: Row[] = [];
    for (const row of rows) {
      const value = valueOf(row);
      if (boundary !== undefined && compareValues(value, boundary) === 0) {
        if (seen.has(idOf(row))) continue;
      } else {
        boundary = value;
        seen = new Set();
      }
      seen.add(idOf(row));
      fresh.push(row);
    }
    if (!full) return { rows: fresh, received: rows.length, next: null };
    const lastValue = valueOf(last!);
    // A full page of one value: read the rest of that value on an id cursor.
    const next: SubgraphCursor = compareValues(valueOf(rows[0]), lastValue) === 0
      ? { at: "tie", value: lastValue }
      : { at: "value", value: lastValue, strict: false };
    return { rows: fresh, received: rows.length, next };
  };
  return { pager, state };
}

/**
 * The rows of a page: GraphQL gives a list field a list, so an answer
 * without it (another field, a number, null) breaks the protocol, and is not
 * read as an empty page that would end the walk early.
 */
export function listAnswered(data: Record<string, unknown>, entity: string): Row[] {
  if (Array.isArray(data.rows)) return data.rows as Row[];
  throw new ProtocolError(`Subgraph answered without the list of ${entity} asked for`, {
    code: "missingList",
    details: JSON.stringify(data).slice(0, 300),
    hint: "Check that the URL is the subgraph's GraphQL endpoint and that it indexes this entity",
  });
}
