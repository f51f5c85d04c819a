/**
 * CSV cells a spreadsheet would run as formulas, prefixed with `'` so it
 * shows them as text: cells come from the web, and so do some column names
 * (an archive's metadata fields), which the header row holds. Shared by `saveTable` and
 * the bundle writer, which escapes before it writes its own number tokens.
 *
 * @module
 */

import type { ColumnTable } from "arquero";

/** Text a spreadsheet would run: a formula lead character, unless the text is a plain number. */
const FORMULA_LEAD = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Whether a cell is text a spreadsheet would run as a formula.
 *
 * @param value Any cell.
 * @returns True for text with a formula lead character that is not a plain number.
 */
export function isFormulaLike(value: unknown): value is string {
  return typeof value === "string" && FORMULA_LEAD.test(value) && !PLAIN_NUMBER.test(value);
}

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
      if (!isFormulaLike(value)) return value;
      changed = true;
      return `'${value}`;
    });
    if (changed) derived[name] = safe;
  }
  return Object.keys(derived).length ? table.assign(derived) : table;
}

/**
 * Renames the columns whose names a spreadsheet would run as formulas, with
 * a leading `'`, for a CSV header row. A name already taken by another
 * column gets more `'`s, so no column is lost.
 *
 * @param table The table.
 * @returns The table, and each renamed column's old and new name.
 */
export function escapeFormulaNames(
  table: ColumnTable,
): { table: ColumnTable; renamed: ReadonlyMap<string, string> } {
  const names = table.columnNames();
  const taken = new Set(names);
  const renamed = new Map<string, string>();
  for (const name of names) {
    if (!isFormulaLike(name)) continue;
    let safe = `'${name}`;
    while (taken.has(safe)) safe = `'${safe}`;
    taken.add(safe);
    renamed.set(name, safe);
  }
  return { table: renamed.size ? table.rename(Object.fromEntries(renamed)) : table, renamed };
}
