/**
 * Parses a SPARQL query with sparqljs before anything is sent, so a syntax
 * error is reported locally with its line and column.
 *
 * @module
 */

import { TidepoolError } from "../http/errors.ts";
import { SparqlSyntaxError } from "./sparql_syntax_error.ts";

/** The kind of a query, from its parse. */
export type QueryType = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE";

interface JisonError {
  message: string;
  hash?: {
    line?: number;
    text?: string;
    loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
  };
}

/** The parsed form sparqljs gives (it ships no types). */
export interface ParsedQuery {
  type: string;
  queryType?: QueryType;
  [key: string]: unknown;
}

/** Parses a query; throws {@linkcode SparqlSyntaxError} with its position. */
export async function parseQuery(query: string): Promise<ParsedQuery> {
  // sparqljs is loaded on first use: importing tidepool should not pay for it.
  const { default: sparqljs } = await import("sparqljs");
  let parsed: ParsedQuery;
  try {
    parsed = new sparqljs.Parser({ skipValidation: false }).parse(query) as ParsedQuery;
  } catch (error) {
    const jison = error as JisonError;
    const { line, column } = errorPosition(query, jison);
    throw new SparqlSyntaxError(String(jison.message ?? error), { line, column });
  }
  if (parsed.type === "update") {
    throw new TidepoolError("Cannot send a SPARQL update: the endpoint is read-only", {
      hint: "Use SELECT, ASK, CONSTRUCT or DESCRIBE",
    });
  }
  return parsed;
}

/**
 * The 1-based line and column of the offending token. The parser's
 * location is of the last token it accepted, so the position is taken as
 * the first occurrence of the offending text after that token's end.
 */
function errorPosition(query: string, error: JisonError): { line: number; column: number } {
  const loc = error.hash?.loc;
  if (!loc) {
    const line = (error.hash?.line ?? 0) + 1;
    return { line, column: 1 };
  }
  const lines = query.split("\n");
  let offset = 0;
  for (let i = 0; i < loc.last_line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += loc.last_column;
  const text = error.hash?.text;
  if (text) {
    const at = query.indexOf(text, offset);
    if (at >= 0) offset = at;
  }
  const before = query.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
