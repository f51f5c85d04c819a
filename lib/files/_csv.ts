/**
 * CSV table files: UTF-8, list and object cells as text, dates as ISO 8601,
 * and cells and column names a spreadsheet would run as formulas written
 * with a leading `'`. Read back with types guessed from the text, or as text.
 *
 * @module
 */

import { type ColumnTable, fromCSV, toCSV } from "arquero";
import { escapeFormulaCells, escapeFormulaNames } from "./_formula_cells.ts";
import { type FlatLists, scalarCells } from "./_list_cells.ts";

/** The table with list and object cells as text and, when asked, formula-like text escaped (CSV, TSV). */
export function textCells(
  table: ColumnTable,
  flat: FlatLists,
  escapeFormulas: boolean,
): ColumnTable {
  const scalar = scalarCells(table, ["array", "object"], flat);
  return escapeFormulas ? escapeFormulaNames(escapeFormulaCells(scalar)).table : scalar;
}

/** The bytes of a CSV file of the table. */
export function encodeCsv(
  table: ColumnTable,
  flat: FlatLists,
  escapeFormulas: boolean,
): Uint8Array {
  return new TextEncoder().encode(toCSV(textCells(table, flat, escapeFormulas)));
}

/**
 * The table in a CSV file's text, types guessed from the first 1,000 rows;
 * with `inferTypes` false every cell is text (or null when empty), for a
 * caller that knows the types (a column empty in those rows is guessed wrong).
 */
export function decodeCsv(text: string, inferTypes = true): ColumnTable {
  return fromCSV(text, { autoType: inferTypes });
}
