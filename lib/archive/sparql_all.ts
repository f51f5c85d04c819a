/**
 * A SELECT read past an endpoint's result cap: paged with LIMIT and OFFSET
 * under a stable ORDER BY, checked against a COUNT so that a silent cap
 * (a page shorter than asked for although more rows exist) is seen and
 * paged around rather than taken for the end.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import type { CursorKind, PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import { PagingCapError } from "../paging/errors.ts";
import { concatTables } from "../table/concat_tables.ts";
import type { ArchiveContext } from "./_context.ts";
import { type ParsedQuery, parseQuery } from "../sparql/_parse_query.ts";
import { runSparql, type SparqlOptions } from "./sparql.ts";

/** Options of {@linkcode sparqlPages} and {@linkcode sparqlAll}. */
export interface SparqlAllOptions extends SparqlOptions, PagedReadOptions {
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

/** The names of the projected variables; for `SELECT *`, read from an empty answer's head. */
async function projectedNames(
  context: ArchiveContext,
  parsed: ParsedQuery,
  options: SparqlOptions,
): Promise<string[]> {
  const variables = parsed.variables as Projected[];
  if (variables.every((v) => "variable" in v || (v as Term).termType === "Variable")) {
    return variables.map((v) => "variable" in v ? v.variable.value : (v as Term).value);
  }
  const { Generator } = await sparqljs();
  const empty = new Generator().stringify({ ...parsed, limit: 0, offset: undefined } as never);
  const head = await runSparql(context, empty, options) as ColumnTable;
  return head.columnNames().filter((name) => !/_(lang|datatype)$/.test(name));
}

/** How many rows the query has in all (its own LIMIT and OFFSET applied). */
async function countRows(
  context: ArchiveContext,
  parsed: ParsedQuery,
  options: SparqlOptions,
): Promise<number> {
  const { Generator, Wildcard } = await sparqljs();
  const { limit, offset, order: _order, prefixes, ...inner } = parsed as ParsedQuery & {
    limit?: number;
    offset?: number;
    order?: unknown;
    prefixes?: Record<string, string>;
  };
  const count = new Generator().stringify({
    type: "query",
    queryType: "SELECT",
    prefixes: prefixes ?? {},
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
  const table = await runSparql(context, count, { ...options, lang: false, datatype: false });
  const all = Number((table as ColumnTable).get("tidepool_count", 0));
  if (!Number.isFinite(all)) {
    throw new TidepoolError("The SPARQL endpoint answered the COUNT without a number", {
      hint: "Pass { count: false } to page without it (a silent row cap then goes unseen)",
    });
  }
  return Math.max(0, Math.min(all - (offset ?? 0), limit ?? Infinity));
}

/**
 * Pages a SELECT, one table per page. The query keeps its ORDER BY, or
 * gets one over every projected variable, so that OFFSET pages are
 * disjoint and complete. Its own LIMIT and OFFSET bound the rows read.
 *
 * @param context The archive's shared state.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of `sparql`.
 * @returns The pages as typed tables (column types as `sparql` gives them, per page).
 * @throws {TidepoolError} For a query that is not a SELECT, or when the
 *   endpoint stops returning rows before the COUNT is reached.
 *
 * @example Every title, past a 10,000-row cap
 * ```ts ignore
 * for await (const page of archive.sparqlPages("SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }")) {
 *   console.log(page.numRows());
 * }
 * ```
 */
export async function* sparqlPages(
  context: ArchiveContext,
  query: string,
  options: SparqlAllOptions = {},
): AsyncGenerator<ColumnTable> {
  // The signal goes with every request: the COUNT, the head and each page.
  const { pageSize = 10_000, count = true, maxPages, maxRows, ...sparql } = options;
  const { signal } = options;
  const parsed = await parseQuery(query);
  if (parsed.queryType !== "SELECT") {
    throw new TidepoolError(
      `Cannot page a ${parsed.queryType} query: only SELECT results are paged`,
      {
        hint: "Use sparql() for ASK, CONSTRUCT and DESCRIBE",
      },
    );
  }
  if (!(pageSize >= 1)) {
    throw new TidepoolError(`Cannot page a SPARQL query by ${pageSize} rows`, {
      hint: "Give pageSize as a whole number of 1 or more",
    });
  }
  const { Generator } = await sparqljs();
  const base = parsed as ParsedQuery & { limit?: number; offset?: number; order?: unknown[] };
  const order = base.order?.length ? base.order : (await projectedNames(context, parsed, sparql))
    .map((name) => ({ expression: { termType: "Variable", value: name } }));
  const total = count ? await countRows(context, parsed, sparql) : undefined;
  const start = base.offset ?? 0;
  const end = base.limit === undefined ? Infinity : start + base.limit;
  const label = "SPARQL SELECT";
  let capped = false;
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
      if (arrived < w.limit) {
        if (total === undefined) return null;
        // More rows exist than arrived: the endpoint caps each answer.
        if (!capped) {
          context.http.warn(
            `${label}: the endpoint returned ${arrived} rows where ${w.limit} were asked, though COUNT says ${total}: it caps answers at ${arrived} rows, so pages of ${arrived} follow`,
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
      call: "sparqlAll()",
      count: "received",
      cursor: windows,
      fetch: (w, signal) =>
        runSparql(
          context,
          new Generator().stringify(
            { ...parsed, order, offset: w.offset, limit: w.limit } as never,
          ),
          { ...sparql, signal },
        ) as Promise<ColumnTable>,
      read: (table) => ({ rows: [table], received: table.numRows(), total }),
      shortfall: () => undefined,
    },
    context.http,
    // The engine counts the walk's rows, here one table a page: rows are capped below.
    { signal, maxPages },
  );
  let received = 0;
  for await (const page of pages) {
    for (const table of page.rows) {
      received += table.numRows();
      if (maxRows !== undefined && received > maxRows) {
        throw new PagingCapError(label, "maxRows", maxRows, "sparqlAll()");
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
 * result cap as {@linkcode sparqlPages} does. Column types follow the
 * datatypes over all pages (integers beyond 2^53 make the column bigint;
 * a column whose pages disagree otherwise becomes text).
 *
 * @param context The archive's shared state.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of `sparql`.
 * @returns One table of every row.
 *
 * @example Every name in the archive
 * ```ts ignore
 * const names = await archive.sparqlAll("SELECT ?s ?name WHERE { ?s <http://schema.org/name> ?name }");
 * ```
 */
export async function sparqlAll(
  context: ArchiveContext,
  query: string,
  options: SparqlAllOptions = {},
): Promise<ColumnTable> {
  const pages: ColumnTable[] = [];
  for await (const page of sparqlPages(context, query, options)) pages.push(page);
  return concatTables(pages);
}
