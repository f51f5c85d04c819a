import type { ColumnTable } from "arquero";
import { columnTypes } from "../table/build_table.ts";
import { formatCell, shorten } from "./_format_cell.ts";
import { provenanceLine } from "./provenance_line.ts";
import { rowIndices, type TableViewOptions, viewLimits } from "./table_html.ts";

/**
 * Renders the first rows of a table as aligned plain text, the `text/plain`
 * form of a table in a notebook and its form in a terminal. A table a
 * tidepool call returned starts with a line that says where it came from
 * (see `provenance`).
 *
 * @param table The table to show.
 * @param options How many rows and how long a cell.
 * @returns Text lines joined with newlines.
 *
 * @example Showing a table in a terminal
 * ```ts
 * import * as aq from "arquero";
 * console.log(tableText(aq.table({ emotion: ["喜", "哀"], count: [3, 1] })));
 * ```
 */
export function tableText(table: ColumnTable, options: TableViewOptions = {}): string {
  const limits = viewLimits({ maxChars: 30, ...options }, "tableText");
  const names = table.columnNames();
  const types = columnTypes(table);
  const total = table.numRows();
  const shown = Math.min(limits.rows, total);
  // Cells by data row, as in tableHtml: the table's own filter and order, and
  // only the rows shown are read.
  const columns = names.map((name) => table.column(name)!);
  const rows = rowIndices(table, shown).map((row) =>
    columns.map((values) => formatCell(values.at(row), limits))
  );
  const header = names.map((name) => shorten(name, limits.maxChars));
  const typeRow = names.map((name) => `<${types[name]}>`);
  const widths = names.map((_, c) =>
    Math.max(width(header[c]), width(typeRow[c]), ...rows.map((r) => width(r[c])))
  );
  const line = (cells: string[]) =>
    cells.map((cell, c) => cell + " ".repeat(widths[c] - width(cell))).join("  ").trimEnd();
  const caption = `${total.toLocaleString("en-US")} rows × ${names.length} columns` +
    (shown < total ? ` (first ${shown} shown)` : "");
  const from = provenanceLine(table);
  return [...(from ? [from] : []), line(header), line(typeRow), ...rows.map(line), caption]
    .join("\n");
}

/** Display width: East Asian wide characters count twice. */
function width(text: string): number {
  let total = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    total += (code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) ||
        (code >= 0xac00 && code <= 0xd7a3) || (code >= 0xf900 && code <= 0xfaff) ||
        (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60) ||
        (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x20000 && code <= 0x3fffd)))
      ? 2
      : 1;
  }
  return total;
}
