/**
 * The error of a SPARQL query that does not parse, found before sending.
 *
 * @module
 */

import { TidepoolError } from "../http/errors.ts";

/**
 * A SPARQL query has a syntax error; nothing was sent.
 *
 * @example Reading the position of the error
 * ```ts
 * const error = new SparqlSyntaxError("Unexpected }", { line: 1, column: 24 });
 * console.log(error.line, error.column);
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
   * @param detail What the parser said.
   * @param position The line and column, from 1.
   */
  constructor(detail: string, position: { line: number; column: number }) {
    super(
      `SPARQL syntax error at line ${position.line}, column ${position.column}: nothing was sent`,
      {
        details: detail,
        detailsLabel: "Parser said",
        hint: "Fix the query at that position; values belong in the sparql`...` template tag",
      },
    );
    this.line = position.line;
    this.column = position.column;
  }
}
