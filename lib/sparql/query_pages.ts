/**
 * A SELECT read past an endpoint's result cap: the query, under a stable
 * ORDER BY, is wrapped in a subquery and paged with LIMIT and OFFSET outside
 * it (`SELECT * WHERE { { <ordered query> } } OFFSET n LIMIT m`): Virtuoso
 * refuses an ordered window past MaxSortedTopRows (10,000 by default, error
 * SR353) but pages the wrapped form to the last row. A COUNT and the
 * server's `X-SPARQL-MaxRows` header show a cap (a page shorter than asked
 * for although more rows exist), which is paged around rather than taken
 * for the end.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import type { CursorKind, PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import { PagingCapError } from "../paging/errors.ts";
import { concatTables } from "../table/concat_tables.ts";
import { type ParsedQuery, parseQuery } from "./_parse_query.ts";
import { type Answer, sendQuery, type SparqlQueryOptions, type SparqlTarget } from "./run_query.ts";

/** Options of {@linkcode queryPages} and {@linkcode queryAll}. */
export interface PagesOptions extends SparqlQueryOptions, PagedReadOptions {
  /** Rows asked for per page; default 10,000 (Virtuoso's usual cap). */
  pageSize?: number;
  /**
   * Ask for the COUNT first (default true): it is what tells a silent cap
   * from the end of the results. Without it a short page ends the read.
   */
  count?: boolean;
}

interface Window {
  offset: number;
  limit: number;
}

type Term = { termType: string; value: string };
type Projected = Term | { expression: unknown; variable: Term };

async function sparqljs() {
  return (await import("sparqljs")).default;
}

/**
 * The table of a SELECT answer, or a ProtocolError naming what came instead
 * (an ASK's boolean, a graph): paging reads rows, never an unchecked shape.
 */
function selectTable(answer: Answer, what: string): ColumnTable {
  const result = answer.result as unknown;
  if (typeof (result as ColumnTable | null)?.numRows === "function") return result as ColumnTable;
  const sent = typeof result === "boolean" ? `a boolean (${result})` : `a ${typeof result}`;
  throw new ProtocolError(`The SPARQL endpoint answered the ${what} with ${sent}, not rows`, {
    hint: "Check that the URL is a SPARQL endpoint answering SELECT queries with result rows",
  });
}

/** The names of the projected variables; for `SELECT *`, read from an empty answer's head. */
async function projectedNames(
  target: SparqlTarget,
  parsed: ParsedQuery,
  options: SparqlQueryOptions & { shown: string },
): Promise<string[]> {
  const variables = parsed.variables as Projected[];
  if (variables.every((v) => "variable" in v || (v as Term).termType === "Variable")) {
    return variables.map((v) => "variable" in v ? v.variable.value : (v as Term).value);
  }
  const { Generator } = await sparqljs();
  const empty = new Generator().stringify({ ...parsed, limit: 0, offset: undefined } as never);
  const head = selectTable(await sendQuery(target, empty, options), "query for its head");
  return head.columnNames().filter((name) => !/_(lang|datatype)$/.test(name));
}

/** The parts of a parsed SELECT that paging moves. */
type Pageable = ParsedQuery & {
  limit?: number;
  offset?: number;
  order?: unknown[];
  prefixes?: Record<string, string>;
  from?: unknown;
};

/**
 * `SELECT ?a ?b WHERE { { <query> } } OFFSET n LIMIT m`: the window is taken
 * outside the ordered subquery, so the server never sorts for a deep TOP.
 * The dataset (FROM) stays with the outer query, where SPARQL allows it.
 */
async function windowQuery(
  parsed: Pageable,
  names: string[],
  offset: number,
  limit: number,
): Promise<string> {
  const { Generator } = await sparqljs();
  const { limit: _l, offset: _o, prefixes, from, declared: _d, ...inner } = parsed;
  return new Generator().stringify({
    type: "query",
    queryType: "SELECT",
    prefixes: prefixes ?? {},
    ...(from ? { from } : {}),
    // Named, not `*`: the columns keep the query's order on every server.
    variables: names.map((value) => ({ termType: "Variable", value })),
    where: [{ type: "group", patterns: [{ ...inner, prefixes: {} }] }],
    offset: offset || undefined,
    limit,
  } as never);
}

/** How many rows the query has in all (its own LIMIT and OFFSET applied). */
async function countRows(
  target: SparqlTarget,
  parsed: Pageable,
  options: SparqlQueryOptions & { shown: string },
): Promise<number> {
  const { Generator, Wildcard } = await sparqljs();
  const { limit, offset, order: _order, prefixes, from, declared: _d, ...inner } = parsed;
  const count = new Generator().stringify({
    type: "query",
    queryType: "SELECT",
    prefixes: prefixes ?? {},
    ...(from ? { from } : {}),
    variables: [{
      expression: {
        type: "aggregate",
        aggregation: "count",
        distinct: false,
        expression: new Wildcard(),
      },
      variable: { termType: "Variable", value: "tidepool_count" },
    }],
    where: [{ type: "group", patterns: [{ ...inner, prefixes: {} }] }],
  } as never);
  const answer = await sendQuery(target, count, { ...options, lang: false, datatype: false });
  const table = selectTable(answer, "COUNT");
  const columns = table.columnNames();
  const sent = !columns.includes("tidepool_count")
    ? `columns ${columns.map((c) => JSON.stringify(c)).join(", ") || "(none)"}`
    : table.numRows() === 0
    ? "no row"
    : undefined;
  const value: unknown = sent === undefined ? table.get("tidepool_count", 0) : undefined;
  const all = typeof value === "number" || typeof value === "bigint" ||
      (typeof value === "string" && /^[0-9]+$/.test(value))
    ? Number(value)
    : NaN;
  if (!Number.isSafeInteger(all) || all < 0) {
    const shown = sent ?? `tidepool_count ${JSON.stringify(String(value)).slice(0, 60)}`;
    throw new ProtocolError(
      "The SPARQL endpoint answered the COUNT without a whole number in tidepool_count",
      {
        details: shown,
        detailsLabel: "The endpoint sent",
        hint: "Pass { count: false } to page without it (a silent row cap then goes unseen)",
      },
    );
  }
  return Math.max(0, Math.min(all - (offset ?? 0), limit ?? Infinity));
}

/**
 * Pages a SELECT, one table per page. The query keeps its ORDER BY, or
 * gets one over every projected variable, so that OFFSET pages are
 * disjoint and complete; each page is a window outside the ordered query
 * (see the module). Its own LIMIT and OFFSET bound the rows read.
 *
 * @param target The endpoint.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of a query.
 * @param call The caller's name for its errors (`sparqlAll()`, `SparqlEndpoint.all()`).
 * @returns The pages as typed tables (column types as a query gives them, per page).
 * @throws {TidepoolError} For a query that is not a SELECT, or when the
 *   endpoint stops returning rows before the COUNT is reached.
 */
export async function* queryPages(
  target: SparqlTarget,
  query: string,
  options: PagesOptions = {},
  call = "sparqlAll()",
): AsyncGenerator<ColumnTable> {
  // The signal goes with every request: the COUNT, the head and each page.
  const { pageSize = 10_000, count = true, maxPages, maxRows, ...rest } = options;
  const { signal } = options;
  const sparql = { ...rest, shown: query };
  const parsed = await parseQuery(query) as Pageable;
  if (parsed.queryType !== "SELECT") {
    throw new TidepoolError(
      `Cannot page a ${parsed.queryType} query: only SELECT results are paged`,
      {
        hint: "Send ASK, CONSTRUCT and DESCRIBE as one query (sparql(), query())",
      },
    );
  }
  if (!(pageSize >= 1)) {
    throw new TidepoolError(`Cannot page a SPARQL query by ${pageSize} rows`, {
      hint: "Give pageSize as a whole number of 1 or more",
    });
  }
  const names = await projectedNames(target, parsed, sparql);
  const order = parsed.order?.length
    ? parsed.order
    : names.map((name) => ({ expression: { termType: "Variable", value: name } }));
  const ordered: Pageable = { ...parsed, order };
  const total = count ? await countRows(target, parsed, sparql) : undefined;
  const start = parsed.offset ?? 0;
  const end = parsed.limit === undefined ? Infinity : start + parsed.limit;
  const label = "SPARQL SELECT";
  let capped = false;
  /** The server's `X-SPARQL-MaxRows` on the last page. */
  let serverCap: number | undefined;
  const windows: CursorKind<Window> = {
    name: "offset",
    first: { offset: start, limit: Math.min(pageSize, end - start) },
    key: (w) => `${w.offset}:${w.limit}`,
    advance(w, page) {
      const arrived = page.received ?? 0;
      const offset = w.offset + arrived;
      const left = Math.min(end, total === undefined ? Infinity : start + total) - offset;
      if (arrived === 0 || left <= 0) return null;
      let limit = w.limit;
      // Virtuoso sends X-SPARQL-MaxRows with an answer that fills its cap.
      const cut = serverCap !== undefined && arrived >= serverCap && serverCap < w.limit;
      if (arrived < w.limit) {
        if (total === undefined && !cut) return null;
        // More rows exist than arrived: the endpoint caps each answer.
        if (!capped) {
          const why = total === undefined
            ? `it sent X-SPARQL-MaxRows: ${serverCap}`
            : `though COUNT says ${total}`;
          target.http.warn(
            `${label}: the endpoint returned ${arrived} rows where ${w.limit} were asked, ${why}: it caps answers at ${arrived} rows, so pages of ${arrived} follow`,
          );
        }
        capped = true;
        limit = arrived;
      }
      return { offset, limit: Math.min(limit, left) };
    },
  };
  const pages = walkPages<Window, ColumnTable, ColumnTable>(
    {
      label,
      unit: "rows",
      call,
      count: "received",
      cursor: windows,
      fetch: async (w, signal) => {
        const text = await windowQuery(ordered, names, w.offset, w.limit);
        const answer = await sendQuery(target, text, { ...sparql, signal });
        serverCap = answer.maxRows;
        return selectTable(answer, "page");
      },
      read: (table) => ({ rows: [table], received: table.numRows(), total }),
      shortfall: () => undefined,
    },
    target.http,
    // The engine counts the walk's rows, here one table a page: rows are capped below.
    { signal, maxPages },
  );
  let received = 0;
  for await (const page of pages) {
    for (const table of page.rows) {
      received += table.numRows();
      if (maxRows !== undefined && received > maxRows) {
        throw new PagingCapError(label, { cap: "maxRows", limit: maxRows, call });
      }
      yield table;
    }
  }
  if (total !== undefined && received < total) {
    throw new TidepoolError(
      `The SPARQL endpoint stopped at row ${received} of ${total}: it returned no rows past offset ${
        start + received
      }`,
      {
        hint:
          "The endpoint caps how far OFFSET reaches; split the query with FILTERs on a range and read each part",
      },
    );
  }
}

/**
 * Reads every row of a SELECT into one table, paging past the endpoint's
 * result cap as {@linkcode queryPages} does. Column types follow the
 * datatypes over all pages (integers beyond 2^53 make the column bigint;
 * a column whose pages disagree otherwise becomes text).
 *
 * @param target The endpoint.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of a query.
 * @param call The caller's name for its errors.
 * @returns One table of every row.
 */
export async function queryAll(
  target: SparqlTarget,
  query: string,
  options: PagesOptions = {},
  call = "sparqlAll()",
): Promise<ColumnTable> {
  const pages: ColumnTable[] = [];
  for await (const page of queryPages(target, query, options, call)) pages.push(page);
  return concatTables(pages);
}
