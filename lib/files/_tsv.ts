/**
 * TSV table files (IANA text/tab-separated-values): one line per row, cells
 * separated by tabs. A tab, a line break or a backslash inside a cell is
 * written as `\t`, `\n`, `\r` or `\\` (the "linear TSV" convention), so every
 * line is one row for `cut`, `awk` and spreadsheets; lists and objects as
 * CSV writes them, dates as ISO 8601, formula-like text prefixed with `'`.
 * Read back with types guessed from the text, as CSV is.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { FlatLists } from "./_list_cells.ts";
import { decodeCsv, textCells } from "./_csv.ts";

const ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};
const UNESCAPES: Readonly<Record<string, string>> = { "\\": "\\", t: "\t", n: "\n", r: "\r" };

/** A cell's text with its tabs, line breaks and backslashes escaped. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return text.replace(/[\\\t\n\r]/g, (char) => ESCAPES[char]);
}

/** The bytes of a TSV file of the table. */
export function encodeTsv(
  table: ColumnTable,
  flat: FlatLists,
  escapeFormulas: boolean,
): Uint8Array {
  const safe = textCells(table, flat, escapeFormulas);
  const names = safe.columnNames();
  const columns = names.map((name) => safe.array(name) as ArrayLike<unknown>);
  const lines = [names.map(cellText).join("\t")];
  for (let row = 0; row < safe.numRows(); row++) {
    lines.push(columns.map((column) => cellText(column[row])).join("\t"));
  }
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

/** The table in a TSV file's text (types guessed as for CSV). */
export function decodeTsv(text: string): ColumnTable {
  const rows = text.split(/\r?\n/).filter((line, i, all) => line !== "" || i < all.length - 1)
    .map((line) =>
      line.split("\t").map((cell) => cell.replace(/\\(.)/g, (_, c) => UNESCAPES[c] ?? `\\${c}`))
    );
  // Quoted as CSV and parsed as CSV, so that a TSV file reads back as its CSV twin.
  const quote = (cell: string) => /[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  return decodeCsv(rows.map((cells) => cells.map(quote).join(",")).join("\n"));
}
