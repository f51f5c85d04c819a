import { checkOptions } from "../options/check_options.ts";
import type { ColumnTable } from "arquero";
import { columnTypes } from "../table/build_table.ts";
import { type CellLimits, escapeHtml, formatCell } from "./_format_cell.ts";
import { provenanceLine } from "./provenance_line.ts";

/** Options of {@linkcode tableHtml} and {@linkcode tableText}. */
export interface TableViewOptions {
  /** Rows shown; default 10. */
  rows?: number;
  /** Longest text shown for one cell; default 60 characters. */
  maxChars?: number;
  /** Most array elements shown in a cell; default 5. */
  maxItems?: number;
}

/** Resolves view options to their defaults. */
export function viewLimits(
  options: TableViewOptions,
  where = "tableHtml",
): CellLimits & { rows: number } {
  checkOptions(where, options, { rows: "integer", maxChars: "integer", maxItems: "integer" });
  return {
    rows: options.rows ?? 10,
    maxChars: options.maxChars ?? 60,
    maxItems: options.maxItems ?? 5,
  };
}

/**
 * Renders the first rows of a table as HTML: column names with their types,
 * the row count, long strings and arrays shortened, everything escaped
 * (Arquero's own `toHTML` leaves column names unescaped).
 *
 * @param table The table to show.
 * @param options How many rows and how long a cell.
 * @returns An HTML fragment.
 *
 * @example Rendering a small table
 * ```ts
 * import * as aq from "arquero";
 * const html = tableHtml(aq.table({ title: ["吾輩は猫である"], year: [1905] }));
 * console.log(html.includes("吾輩は猫である")); // true
 * ```
 */
export function tableHtml(table: ColumnTable, options: TableViewOptions = {}): string {
  const limits = viewLimits(options);
  const names = table.columnNames();
  const types = columnTypes(table);
  const total = table.numRows();
  const shown = Math.min(limits.rows, total);
  // Numbers read right-aligned, everything else left-aligned (notebook CSS
  // right-aligns every cell); cells never wrap, since long text is shortened.
  const align = names.map((name) =>
    ["number", "integer", "bigint"].includes(types[name]) ? "right" : "left"
  );
  const head = names.map((name, c) =>
    `<th style="text-align:${align[c]};white-space:nowrap">${
      escapeHtml(name)
    }<br><small style="font-weight:normal;color:#888">${types[name]}</small></th>`
  ).join("");
  // Cells by data row (what rowIndices gives), never a copy of whole columns:
  // a filtered or ordered table shows its own rows, and a large one costs
  // only the rows shown.
  const columns = names.map((name) => table.column(name)!);
  const body: string[] = [];
  const indices = rowIndices(table, shown);
  for (const row of indices) {
    const cells = columns.map((values, c) => {
      const value: unknown = values.at(row);
      const text = escapeHtml(formatCell(value, limits));
      const missing = value === null || value === undefined ? ";color:#aaa" : "";
      return `<td style="text-align:${align[c]};white-space:nowrap${missing}">${text}</td>`;
    });
    body.push(`<tr>${cells.join("")}</tr>`);
  }
  const caption = `${total.toLocaleString("en-US")} rows × ${names.length} columns` +
    (shown < total ? ` (first ${shown} shown)` : "");
  const from = provenanceLine(table);
  const source = from ? `<br>${escapeHtml(from.replace(/^# /, "From "))}` : "";
  return `<div class="tidepool-table" style="overflow-x:auto"><table><thead><tr>${head}</tr></thead><tbody>${
    body.join("")
  }</tbody></table><p style="color:#666;font-size:smaller">${
    escapeHtml(caption)
  }${source}</p></div>`;
}

/** The row indices of the first `count` rows, honouring filters and order. */
export function rowIndices(table: ColumnTable, count: number): number[] {
  const indices: number[] = [];
  table.scan(
    (row) => {
      indices.push(row!);
    },
    true,
    count,
  );
  return indices;
}
