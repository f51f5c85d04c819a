/**
 * A table's cells as the bundle's CSV writes them, so every cell parses as
 * its Table Schema type (see `frictionless_schema.ts`): dates always with
 * their time, numbers in Table Schema's lexical form.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { ColumnType } from "../table/convert.ts";
import { tableFromColumns } from "../table/build_table.ts";
import { escapeFormulaCells } from "../notebook/_formula_cells.ts";

/** A number as Table Schema writes it: `NaN`, `INF`, `-INF`, an upper-case exponent. */
function numberText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "INF";
  if (value === -Infinity) return "-INF";
  return String(value).replace("e", "E");
}

function cellText(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  if (type === "date" && value instanceof Date) return value.toISOString();
  if (type === "number" && typeof value === "number") return numberText(value);
  return value;
}

/**
 * The table with text cells for dates (`toISOString`, so midnight keeps its
 * time, which Arquero's CSV writer drops) and numbers. Formula-like text in
 * `string` columns is escaped first when asked, so `-INF` is never escaped.
 * The other columns keep their declared types, so `saveTable` writes list
 * and object cells as JSON text whatever their first value.
 *
 * @param table The table.
 * @param types Its column types.
 * @param escapeFormulas Whether to prefix formula-like text with `'`.
 * @returns The table to hand to `saveTable` with `escapeFormulas: false`.
 */
export function csvCells(
  table: ColumnTable,
  types: Readonly<Record<string, ColumnType>>,
  escapeFormulas: boolean,
): ColumnTable {
  const names = Object.keys(types);
  const text = names.filter((name) => types[name] === "string");
  const escaped = escapeFormulas ? escapeFormulaCells(table, text) : table;
  return tableFromColumns(names.map((name) => {
    const type = types[name];
    const values = Array.from(escaped.array(name) as ArrayLike<unknown>);
    if (type !== "date" && type !== "number") return { name, type, values };
    return { name, type: "string", values: values.map((value) => cellText(value, type)) };
  }));
}
