/**
 * The error of a SPARQL query that does not parse, found before sending.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

/** Where a query failed and what the parser found there. */
export interface SparqlErrorPosition {
  /** The line, from 1. */
  line: number;
  /** The column, from 1. */
  column: number;
  /** The whole query, to show the line with a caret under the column. */
  query?: string;
  /** What was found there, such as `'}'`; shown after the caret. */
  found?: string;
  /** What to do instead of the default hint. */
  hint?: string;
}

const DEFAULT_HINT =
  "Fix the query at that position; values belong in the sparql`...` template tag";

/**
 * A SPARQL query has a syntax error; nothing was sent. The message shows the
 * offending line with a caret under the column.
 *
 * @example Reading the position of the error
 * ```ts
 * const query = "SELECT ?s WHERE { ?s ?p }";
 * const error = new SparqlSyntaxError("Unexpected }", { line: 1, column: 25, query });
 * console.log(error.line, error.column);
 * console.log(error.message);
 * // SPARQL syntax error at line 1, column 25: Unexpected }; nothing was sent
 * //   1 | SELECT ?s WHERE { ?s ?p }
 * //     |                         ^
 * // What to do: Fix the query at that position; values belong in the sparql`...` template tag
 * ```
 */
export class SparqlSyntaxError extends TidepoolError {
  /** The error kind, `"SparqlSyntaxError"`, as shown in messages and stack traces. */
  override name = "SparqlSyntaxError";
  /** The line of the error, from 1. */
  readonly line: number;
  /** The column of the error, from 1. */
  readonly column: number;

  /**
   * Creates the error for a query that failed to parse before it was sent.
   *
   * @param problem What is wrong, in a few words (`unexpected '}'`).
   * @param position The line and column, from 1, and the query to show them in.
   */
  constructor(problem: string, position: SparqlErrorPosition) {
    const lines = [
      `SPARQL syntax error at line ${position.line}, column ${position.column}: ${problem}; nothing was sent`,
    ];
    if (position.query !== undefined) lines.push(...excerpt(position));
    super(lines.join("\n"), { hint: position.hint ?? DEFAULT_HINT });
    this.line = position.line;
    this.column = position.column;
  }
}

/** The offending line, numbered, and a caret under the column. */
function excerpt(position: SparqlErrorPosition): string[] {
  const text = (position.query ?? "").split("\n")[position.line - 1] ?? "";
  const number = String(position.line);
  const pad = " ".repeat(number.length);
  // Tabs keep their width on the caret line, so the caret stays under the column.
  const before = text.slice(0, position.column - 1).replace(/[^\t]/g, " ");
  return [`  ${number} | ${text}`, `  ${pad} | ${before}^`];
}
