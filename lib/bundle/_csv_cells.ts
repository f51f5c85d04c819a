/**
 * A table's cells as the bundle's CSV writes them, so every cell parses as
 * its Table Schema type (see `frictionless_schema.ts`): dates always with
 * their time, numbers in Table Schema's lexical form, formula-like text
 * escaped when asked.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { ColumnType } from "../table/convert.ts";
import { tableFromColumns } from "../table/build_table.ts";
import { escapeFormulaNames, isFormulaLike } from "../files/_formula_cells.ts";

/** A number as Table Schema writes it: `NaN`, `INF`, `-INF`, an upper-case exponent. */
function numberText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "INF";
  if (value === -Infinity) return "-INF";
  return String(value).replace("e", "E");
}

/** The CSV form of a table: the table to write, and the columns whose formula-like text was escaped. */
export interface CsvCells {
  /** The table to hand to `saveTable` with `escapeFormulas: false`. */
  table: ColumnTable;
  /** The `string` columns in which some cell got a leading `'`. */
  escaped: string[];
  /** The columns whose names a spreadsheet would run, and their quoted names in the header. */
  renamed: ReadonlyMap<string, string>;
}

/**
 * The table with text cells for dates (`toISOString`, so midnight keeps its
 * time, which Arquero's CSV writer drops) and numbers. Formula-like text in
 * `string` columns is escaped when asked, and only there, so `-INF` is
 * never escaped. The other columns keep their declared types, so
 * `saveTable` writes list and object cells as JSON text whatever their
 * first value.
 *
 * @param table The table.
 * @param types Its column types.
 * @param escapeFormulas Whether to prefix formula-like text with `'`.
 * @returns The table to write and the columns escaped.
 */
export function csvCells(
  table: ColumnTable,
  types: Readonly<Record<string, ColumnType>>,
  escapeFormulas: boolean,
): CsvCells {
  const escaped: string[] = [];
  const columns = Object.entries(types).map(([name, type]) => {
    const values = Array.from(table.array(name) as ArrayLike<unknown>);
    if (type === "date") {
      const text = values.map((value) => value instanceof Date ? value.toISOString() : null);
      return { name, type: "string" as const, values: text };
    }
    if (type === "number") {
      const text = values.map((value) => typeof value === "number" ? numberText(value) : null);
      return { name, type: "string" as const, values: text };
    }
    if (type === "string" && escapeFormulas && values.some(isFormulaLike)) {
      escaped.push(name);
      return { name, type, values: values.map((v) => isFormulaLike(v) ? `'${v}` : v) };
    }
    return { name, type, values };
  });
  const cells = tableFromColumns(columns);
  if (!escapeFormulas) return { table: cells, escaped, renamed: new Map() };
  const { table: named, renamed } = escapeFormulaNames(cells);
  return { table: named, escaped, renamed };
}
