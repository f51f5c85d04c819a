/**
 * CSV cells a spreadsheet would run as formulas, prefixed with `'` so it
 * shows them as text: cells come from the web. Shared by `saveTable` and
 * the bundle writer, which escapes before it writes its own number tokens.
 *
 * @module
 */

import type { ColumnTable } from "arquero";

/** Text a spreadsheet would run: a formula lead character, unless the text is a plain number. */
const FORMULA_LEAD = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Prefixes formula-like text cells with `'` so a spreadsheet shows them as text.
 *
 * @param table The table.
 * @param names The columns to look at; default every column.
 * @returns The table, with only the changed columns replaced.
 */
export function escapeFormulaCells(
  table: ColumnTable,
  names: readonly string[] = table.columnNames(),
): ColumnTable {
  const derived: Record<string, unknown[]> = {};
  for (const name of names) {
    const values = table.array(name) as ArrayLike<unknown>;
    let changed = false;
    const safe = Array.from(values, (value) => {
      if (typeof value !== "string" || !FORMULA_LEAD.test(value) || PLAIN_NUMBER.test(value)) {
        return value;
      }
      changed = true;
      return `'${value}`;
    });
    if (changed) derived[name] = safe;
  }
  return Object.keys(derived).length ? table.assign(derived) : table;
}
