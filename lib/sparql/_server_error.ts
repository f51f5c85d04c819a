/**
 * What a SPARQL server's error answer says, by its error code: a fault of
 * the query (a compile error, an unknown function, a window past the sort
 * bound, the server's time limit) is answered the same on every try, so it
 * is never retried; a 500 or 503 without such a code stays retried.
 *
 * Virtuoso writes `Virtuoso <SQLSTATE> Error <code>: <text>` in a
 * `text/plain` body (its codes as 7.2.5 sends them, see docs/ASSUMPTIONS.md).
 *
 * @module
 */

import { HttpError, httpErrorFields } from "../errors/errors.ts";
import type { HttpResponse } from "../http/response.ts";

/** The kinds of fault an error code names. */
export type SparqlFault = "syntax" | "function" | "window" | "timeout" | "query";

/** The code, SQLSTATE and text of a Virtuoso error body, with the fault they name. */
export interface ServerFault {
  fault: SparqlFault;
  sqlState: string;
  code?: string;
  text: string;
}

const VIRTUOSO = /^Virtuoso (\w{5}) Error (?:(\w{2}\d{3}): )?([^\n]*)/m;

/** SQLSTATEs and codes that a retry answers the same (the query is at fault). */
function faultOf(
  sqlState: string,
  code: string | undefined,
  text: string,
): SparqlFault | undefined {
  if (code === "SR171" || sqlState === "S1T00") return "timeout";
  // The cost estimate past MaxQueryCostEstimationTime: the same advice as a timeout.
  if (sqlState === "42000" && /estimated execution time/i.test(text)) return "timeout";
  if (code === "SR353") return "window";
  if (code === "SR185" || code === "SP031") return "function";
  if (code?.startsWith("SP") || sqlState === "37000") return "syntax";
  if (/^(42|22)/.test(sqlState)) return "query";
  return undefined;
}

/** The fault a server's error body names, or undefined for an error that may pass. */
export function serverFault(body: string): ServerFault | undefined {
  const match = VIRTUOSO.exec(body);
  if (!match) return undefined;
  const [, sqlState, code, line] = match;
  // Virtuoso repeats the query it ran after "SPARQL query:" (the text sent, maybe a page or a
  // COUNT built from the user's); a body read whole may have its lines joined.
  const text = line.split(/\s*SPARQL query:/)[0];
  const fault = faultOf(sqlState, code, text);
  return fault && { fault, sqlState, code, text: text.trim() };
}

/** Whether a failed answer is final: its body names a fault of the query. */
export function isFinalAnswer(response: HttpResponse): boolean {
  return response.status >= 400 && serverFault(response.text()) !== undefined;
}

/**
 * The SPARQL server refused a query with an error code that names a fault of
 * the query: a retry would answer the same, so it was sent once.
 *
 * @example Telling a timeout from the rest
 * ```ts ignore (needs a SPARQL endpoint that refuses the query, as Virtuoso does; tests/sparql runs it)
 * try {
 *   await endpoint.query("SELECT * WHERE { ?s ?p ?o }");
 * } catch (error) {
 *   if (error instanceof SparqlServerError && error.fault === "timeout") console.log(error.hint);
 * }
 * ```
 */
export class SparqlServerError extends HttpError {
  /** The error kind, `"SparqlServerError"`. */
  override name = "SparqlServerError";
  /** The kind of fault: `syntax`, `function`, `window`, `timeout` or `query`. */
  readonly fault: SparqlFault;
  /** The server's error code (`SR171`, `SP030`), when it gave one. */
  readonly code?: string;
  /** The server's SQLSTATE (`37000`, `S1T00`). */
  readonly sqlState: string;
  /** The query as the caller wrote it. */
  readonly query: string;

  /**
   * Wraps the HTTP error of an answer whose body names a fault of the query.
   *
   * @param error The HTTP error of the answer.
   * @param parameters `found`, what its body names; `query`, the query as the caller wrote it.
   */
  constructor(error: HttpError, { found, query }: { found: ServerFault; query: string }) {
    const named = [found.sqlState, found.code].filter(Boolean).join(" ");
    // The URL without its query string: that holds the text sent (a page, a COUNT), not the user's.
    const endpoint = error.url.split("?")[0];
    super(
      `The SPARQL endpoint refused the query (${named}): ${found.text} [${error.method} ${endpoint} answered ${error.status}]`,
      {
        ...httpErrorFields(error),
        url: endpoint,
        body: found.text,
        details: `${found.text}\n\nThe query:\n${query}`,
        hint: HINTS[found.fault],
      },
    );
    this.fault = found.fault;
    this.code = found.code;
    this.sqlState = found.sqlState;
    this.query = query;
  }
}

const HINTS: Record<SparqlFault, string> = {
  syntax: "Fix the query where the server says; it is the same on every try, so it was sent once",
  function: "The server does not know this function: use a SPARQL 1.1 function or the server's own",
  window:
    "The server refuses sorted windows this deep: read every row with sparqlAll() (or --all), which pages without it",
  timeout:
    "The query ran past the server's time limit: narrow it (a LIMIT, a FILTER on a range of values, fewer OPTIONALs) and read the parts one by one",
  query: "The server refused the query itself; change it where the server says (sent once)",
};

/** The error of a failed query: a SparqlServerError where the body names a fault, else as it came. */
export function queryError(error: unknown, query: string): unknown {
  if (!(error instanceof HttpError) || error instanceof SparqlServerError) return error;
  const found = serverFault(error.body);
  return found ? new SparqlServerError(error, { found, query }) : error;
}
