/**
 * Reads a SPARQL result document (JSON, XML, CSV or TSV) into a table, or
 * the boolean of an ASK; for documents already on disk or in memory.
 *
 * @module
 */

import { checkCall } from "./_option_rules.ts";
import type { ColumnTable } from "arquero";
import { ProtocolError } from "../errors/errors.ts";
import type { ResultFormat } from "../sparql/_sparql_results.ts";
import type { CompanionOptions } from "../sparql/_sparql_table.ts";

/** Options of {@linkcode readSparqlResults}. */
export interface ReadSparqlResultsOptions extends CompanionOptions {
  /** The format (`json`, `xml`, `csv`, `tsv`) or a content type. */
  format: ResultFormat | string;
}

/**
 * Reads a result document. SELECT answers become a table whose columns follow
 * the variables, typed from their datatypes (see the column rules in
 * docs/archive.md: integers to number or bigint, decimals and doubles to
 * number, booleans, dates to `Date`, the rest as strings), unbound values
 * null. A column is typed only when every value converts exactly: a decimal
 * a double cannot hold or a time past the millisecond keeps the column as
 * the text sent. TSV that is not SPARQL 1.1 TSV (Virtuoso's CSV-style TSV)
 * is a `ProtocolError` naming the line.
 *
 * @param text The document.
 * @param options The format and the companion columns (`lang`, `datatype`).
 * @returns The table, or the boolean of an ASK answer.
 *
 * @example A JSON answer to a table
 * ```ts
 * const table = await readSparqlResults(
 *   '{"head":{"vars":["n"]},"results":{"bindings":[{"n":{"type":"literal","value":"4","datatype":"http://www.w3.org/2001/XMLSchema#integer"}}]}}',
 *   { format: "json" },
 * );
 * console.log(typeof table === "boolean" ? table : table.array("n")); // [4]
 * ```
 */
export async function readSparqlResults(
  text: string,
  options: ReadSparqlResultsOptions,
): Promise<ColumnTable | boolean> {
  checkCall("readSparqlResults", options);
  // The readers load on first use, so that importing tidepool stays quick.
  const [{ parseResults, resultFormat }, { bindingsTable }] = await Promise.all([
    import("../sparql/_sparql_results.ts"),
    import("../sparql/_sparql_table.ts"),
  ]);
  const format = (["json", "xml", "csv", "tsv"] as string[]).includes(options.format)
    ? options.format as ResultFormat
    : resultFormat(options.format);
  if (!format) {
    throw new ProtocolError(`Cannot read SPARQL results of type ${options.format}`, {
      hint: "Give json, xml, csv or tsv",
    });
  }
  const result = await parseResults(text, format);
  return typeof result === "boolean" ? result : bindingsTable(result, options);
}
