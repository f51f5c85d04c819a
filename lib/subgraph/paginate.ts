/**
 * Every row of a subgraph entity as one Arquero table: cursor pages of
 * 1,000, one block, nested fields as dotted columns, a staleness check.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { TableBuilder } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";
import { parsePath, typeNameOf } from "./_document.ts";
import type { SubgraphContext } from "./_context.ts";
import { PAGE_SIZE, type PageLoopOptions, type PageLoopState, subgraphPager } from "./_paginate.ts";
import type { PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import { emptyAnswerReason, staleReasons } from "./_staleness.ts";
import { normaliseWhere, type WhereFilter } from "./_where.ts";
import { StaleSubgraphError } from "./stale_subgraph_error.ts";
import { attachSubgraphInfo, type SubgraphInfo } from "./subgraph_info.ts";
import { noteAsOf } from "../table/call_trace.ts";

export type { WhereFilter };

/** A row as the subgraph sends it (nested objects, not yet flattened). */
export type SubgraphRow = Record<string, unknown>;

/** Options of {@linkcode paginate}, with the per-call signal and caps. */
export interface PaginateOptions extends PagedReadOptions {
  /** The collection field, e.g. `orders`, `tokens`, `nftUpdates`. */
  entity: string;
  /**
   * The entity type name for the filter and orderBy types (`Order` gives
   * `Order_filter`); derived from `entity` by default (`orders` → `Order`).
   */
  typeName?: string;
  /** Field paths to read, dotted for nested fields: `["id", "consumer.id", "datatoken.symbol"]`. */
  fields: readonly string[];
  /** The filter; address-shaped values are lower-cased. Values travel as GraphQL variables. */
  where?: WhereFilter;
  /** The sort field; default `id`. */
  orderBy?: string;
  /** The sort direction; default `asc`. */
  orderDirection?: "asc" | "desc";
  /** Pin every page to this block; default the head reported with the first page. */
  block?: number;
  /** Throw {@linkcode StaleSubgraphError} instead of warning when the subgraph is stale or below this block. */
  minBlock?: number;
  /**
   * The column schema of the table. Default: one column per field path,
   * named by the path (`consumer.id`); fields whose name ends in
   * `timestamp` become dates, other values stay as the server sent them
   * (BigInt and BigDecimal as exact strings, Int as numbers); a path
   * through a list gives an array of values.
   */
  schema?: TableSchema<SubgraphRow>;
  /** The label of the progress display; default the entity name. */
  label?: string;
  /** Rows a page; default and most 1,000. */
  pageSize?: number;
}

/** Reads a dotted path, mapping over lists on the way (`reuses.id` gives every reuse id). */
export function readMapped(record: unknown, steps: readonly string[], from = 0): unknown {
  let value: unknown = record;
  for (let i = from; i < steps.length; i++) {
    if (Array.isArray(value)) return value.map((item) => readMapped(item, steps, i));
    if (value === null || typeof value !== "object") return value === null ? null : undefined;
    value = (value as Record<string, unknown>)[steps[i]];
  }
  return value;
}

/** The default schema of a field list. */
export function fieldSchema(fields: readonly string[]): TableSchema<SubgraphRow> {
  return defineSchema<SubgraphRow>(fields.map((path) => {
    const steps = parsePath(path).map((step) => step.name);
    const name = steps.join(".");
    const type: ColumnType = /timestamp$/i.test(steps[steps.length - 1]) ? "date" : "object";
    return steps.length === 1
      ? { name, type, path: name }
      : { name, type, get: (row: SubgraphRow) => readMapped(row, steps) };
  }));
}

/**
 * Reads every row of an entity into a table.
 *
 * @param context The subgraph's HTTP client, endpoint and staleness settings.
 * @param options The entity, fields, filter, order and block.
 * @returns The table, with {@linkcode subgraphInfo} attached.
 *
 * @example Every token, nested fields as dotted columns
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const table = await sg.paginate({ entity: "tokens", fields: ["id", "symbol", "nft.owner.id"] });
 * console.log(table.columnNames()); // ["id", "symbol", "nft.owner.id"]
 * ```
 */
export async function paginate(
  context: SubgraphContext,
  options: PaginateOptions,
): Promise<ColumnTable> {
  const builder = new TableBuilder(options.schema ?? fieldSchema(options.fields));
  const { http } = context;
  if (http.pacing.concurrency > 1 && options.orderDirection !== "desc" && !http.caching) {
    // Several ranges of the order field in flight at once, joined in order. A recording (or
    // its replay) reads one page at a time, so that a recording made by any version replays.
    const { rows, info } = await readInRanges(context, options);
    builder.add(rows);
    noteAsOf(subgraphAsOf(info));
    return attachSubgraphInfo(builder.build(), info);
  }
  const pages = paginateRows(context, options);
  let page = await pages.next();
  while (!page.done) {
    builder.add(page.value);
    page = await pages.next();
  }
  noteAsOf(subgraphAsOf(page.value));
  return attachSubgraphInfo(builder.build(), page.value);
}

/** The block a read is pinned to, as a table's provenance states it. */
function subgraphAsOf(info: Pick<SubgraphInfo, "block" | "meta">) {
  const atHead = info.meta && info.meta.block === info.block;
  return {
    block: info.block,
    blockTime: atHead ? info.meta?.blockTime?.toISOString() : undefined,
    deployment: info.meta?.deployment || undefined,
  };
}

/** The walk of a read and its staleness check, shared by the one-at-a-time and the parallel read. */
function readSetup(context: SubgraphContext, options: PaginateOptions) {
  const minBlock = options.minBlock ?? context.minBlock;
  const check = {
    reasons: [] as string[],
    onFirstPage(first: PageLoopState, empty: boolean) {
      check.reasons = staleReasons(first.meta, { startBlock: context.startBlock, minBlock });
      if (check.reasons.length && minBlock !== undefined) {
        throw new StaleSubgraphError({
          block: first.meta?.block ?? -1,
          minBlock,
          reasons: check.reasons,
        });
      }
      if (empty) check.reasons.push(emptyAnswerReason(first.meta));
    },
  };
  const loop: PageLoopOptions = {
    entity: options.entity,
    typeName: options.typeName ?? typeNameOf(options.entity),
    fields: options.fields,
    where: normaliseWhere(options.where),
    orderBy: options.orderBy ?? "id",
    orderDirection: options.orderDirection ?? "asc",
    block: options.block,
    pageSize: options.pageSize,
  };
  return { label: options.label ?? options.entity, loop, check };
}

/** Warns when the read may be stale, and says what it saw. */
function finishRead(
  context: SubgraphContext,
  label: string,
  reasons: string[],
  state: PageLoopState,
  walked: { pages: number; rows: number },
): SubgraphInfo {
  if (reasons.length) {
    context.http.warn(
      `Subgraph answer for ${label} (${walked.rows} rows) may be stale: ${reasons.join("; ")}. ` +
        `Check subgraphInfo(table).stale, or set minBlock to make this an error`,
    );
  }
  return {
    block: state.block,
    meta: state.meta,
    stale: reasons.length > 0,
    reasons,
    pages: walked.pages,
    rows: walked.rows,
  };
}

/** Every row through the parallel read of `_ranges.ts`, and what it saw. */
async function readInRanges(
  context: SubgraphContext,
  options: PaginateOptions,
): Promise<{ rows: SubgraphRow[]; info: SubgraphInfo }> {
  const { label, loop, check } = readSetup(context, options);
  const { readRanges } = await import("./_ranges.ts");
  const { signal, maxPages, maxRows } = options;
  const read = await readRanges(context, loop, label, check.onFirstPage, {
    signal,
    maxPages,
    maxRows,
  });
  const walked = { pages: read.pages, rows: read.rows.length };
  return { rows: read.rows, info: finishRead(context, label, check.reasons, read.state, walked) };
}

/**
 * The pages of an entity as {@linkcode paginate} reads them, as the
 * subgraph sent the rows (nested objects), for consumers that do not hold
 * the whole read: a Parquet dataset, a running total. One request at a
 * time: pages go out in order as they are read.
 *
 * @param context The subgraph's HTTP client, endpoint and staleness settings.
 * @param options The entity, fields, filter, order and block.
 * @returns The pages; when done, what the read saw (block, staleness, pages, rows).
 */
export async function* paginateRows(
  context: SubgraphContext,
  options: PaginateOptions,
): AsyncGenerator<readonly SubgraphRow[], SubgraphInfo> {
  const { label, loop, check } = readSetup(context, options);
  const { pager, state } = subgraphPager(
    (document, variables, signal) => context.send(document, variables, signal),
    loop,
    label,
    check.onFirstPage,
  );
  pager.summary = ({ pages }) => `${pages} pages, block ${state.block}`;
  const { signal, maxPages, maxRows } = options;
  const walk = walkPages(pager, context.http, { signal, maxPages, maxRows });
  // Pages as asked for: a request's rows that repeat the last one's (the ties
  // of a timestamp cursor) are dropped, so requests give uneven pages, even
  // empty ones. The rows are dealt out again in pages of the size asked,
  // the last one shorter, none empty unless the whole read is.
  const size = options.pageSize ?? PAGE_SIZE;
  let held: SubgraphRow[] = [];
  let yielded = false;
  let step = await walk.next();
  while (!step.done) {
    held = held.concat(step.value.rows);
    while (held.length >= size) {
      // Pinned from the first page on: each page states the block it was read at.
      noteAsOf(subgraphAsOf(state));
      yield held.slice(0, size);
      held = held.slice(size);
      yielded = true;
    }
    step = await walk.next();
  }
  if (held.length > 0 || !yielded) {
    noteAsOf(subgraphAsOf(state));
    yield held;
  }
  return finishRead(context, label, check.reasons, state, step.value);
}
