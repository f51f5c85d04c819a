import type { ColumnTable } from "arquero";
import { columnTypes } from "./build_table.ts";

/**
 * A table as canonical text: two tables give the same text exactly when they
 * have the same column names in the same order, the same column types
 * (from `columnTypes`) and the same values row by row. It is what
 * `tableDigest` hashes, so a replayed table can be compared with its
 * recording through one hash.
 *
 * The first line is a JSON list of `[name, type]` pairs; each further line
 * is one row as a JSON list. Values are encoded so that no two distinct
 * values share a form, whatever the JavaScript type:
 * - `null` and `undefined` are `null` (a missing value either way);
 * - numbers are JSON numbers (`-0` as `0`); `NaN` and the infinities are
 *   `{"$number":"NaN"}`, `{"$number":"Infinity"}`, `{"$number":"-Infinity"}`;
 * - bigints are `{"$bigint":"123"}`, so `1n` differs from `1`;
 * - dates are `{"$date":"2026-06-30T00:00:00.000Z"}` (UTC, milliseconds), an
 *   invalid date `{"$date":null}`;
 * - lists (and typed arrays) are JSON lists of encoded items;
 * - objects have their keys sorted; a key starting with `$` gains another
 *   `$`, so no object can pass for an encoded value;
 * - anything else (a Map, a function) is `{"$other":"..."}` of its `String()`.
 *
 * @param table The table.
 * @returns The canonical text.
 *
 * @example Types and values, one line each
 * ```ts
 * import * as aq from "arquero";
 * const text = canonicalTable(aq.table({ n: [1n], when: [new Date(0)] }));
 * console.log(text);
 * // [["n","bigint"],["when","date"]]
 * // [{"$bigint":"1"},{"$date":"1970-01-01T00:00:00.000Z"}]
 * ```
 */
export function canonicalTable(table: ColumnTable): string {
  return [...canonicalLines(table)].join("\n");
}

/**
 * The lines of {@linkcode canonicalTable} one at a time, so that a large
 * table is hashed without its whole text in memory (a displayed table of a
 * million rows would otherwise hold hundreds of MiB of it at once).
 *
 * @param table The table.
 * @param types Its column types, when already known.
 * @returns The header line, then one line per row.
 */
export function* canonicalLines(
  table: ColumnTable,
  types: Readonly<Record<string, string>> = columnTypes(table),
): Generator<string> {
  const names = table.columnNames();
  yield JSON.stringify(names.map((name) => [name, types[name]]));
  const columns = names.map((name) => table.array(name) as ArrayLike<unknown>);
  const rows = table.numRows();
  for (let row = 0; row < rows; row++) {
    yield JSON.stringify(columns.map((values) => canonicalValue(values[row])));
  }
}

/** One value in its canonical JSON form; see {@linkcode canonicalTable}. */
function canonicalValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      return { $number: String(value) };
    case "bigint":
      return { $bigint: value.toString() };
  }
  if (value instanceof Date) {
    return { $date: Number.isNaN(value.getTime()) ? null : value.toISOString() };
  }
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<unknown>, canonicalValue);
  }
  if (typeof value === "object" && isPlainObject(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key.startsWith("$") ? `$${key}` : key, canonicalValue(item)]);
    return Object.fromEntries(entries);
  }
  return { $other: String(value) };
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
