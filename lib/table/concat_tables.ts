/**
 * Tables read page by page, joined into one: columns by name, types
 * reconciled where pages disagree.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { columnTypes, tableFromColumns, type TypedColumn } from "./build_table.ts";
import { type ColumnType, CONVERTERS } from "./convert.ts";

const NUMERIC: readonly ColumnType[] = ["integer", "number"];

/**
 * The one type that holds the values of several columns of these types:
 * the type itself when they agree, `number` for integers and numbers,
 * `bigint` for integers and bigints, else `string`.
 *
 * @param types The types of the parts (those of all-null parts left out).
 * @returns The type of the joined column; `string` when none is given.
 *
 * @example
 * ```ts
 * console.log(widenType(["integer", "bigint"])); // "bigint"
 * ```
 */
export function widenType(types: readonly ColumnType[]): ColumnType {
  const distinct = [...new Set(types)];
  if (distinct.length === 0) return "string";
  if (distinct.length === 1) return distinct[0];
  if (distinct.every((type) => NUMERIC.includes(type))) return "number";
  if (distinct.every((type) => type === "bigint" || type === "integer")) return "bigint";
  return "string";
}

/**
 * A value converted to a column type; dates written as ISO 8601 when the
 * type is `string`, rather than as JSON.
 *
 * @param value A column value.
 * @param type The target type.
 * @returns The value, or null when it cannot be of that type.
 *
 * @example
 * ```ts
 * console.log(convertTo(new Date(0), "string")); // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function convertTo(value: unknown, type: ColumnType): unknown {
  if (type === "string" && value instanceof Date) return value.toISOString();
  if (type === "string" && Array.isArray(value)) return JSON.stringify(value);
  return CONVERTERS[type](value);
}

/**
 * Joins tables row-wise: columns by name in order of first appearance, a
 * table without a column gives it nulls, and a column whose tables disagree
 * on its type takes {@linkcode widenType} of their types (tables where it
 * is all null do not count).
 *
 * @param tables The tables, in order.
 * @returns One table; its types readable with {@linkcode columnTypes}. It
 *   has no provenance (see `provenance`): its parts may come from different calls.
 *
 * @example Two pages whose integers outgrow numbers
 * ```ts
 * import { tableFromColumns } from "./build_table.ts";
 * const joined = concatTables([
 *   tableFromColumns([{ name: "n", type: "integer", values: [1] }]),
 *   tableFromColumns([{ name: "n", type: "bigint", values: [2n ** 60n] }]),
 * ]);
 * console.log(joined.array("n")); // [1n, 1152921504606846976n]
 * ```
 */
export function concatTables(tables: readonly ColumnTable[]): ColumnTable {
  const names: string[] = [];
  const typesOf = tables.map((table) => columnTypes(table));
  for (const types of typesOf) {
    for (const name of Object.keys(types)) if (!names.includes(name)) names.push(name);
  }
  const columns: TypedColumn[] = names.map((name) => {
    const present = tables.flatMap((table, i) =>
      name in typesOf[i] && hasValue(table.array(name) as ArrayLike<unknown>)
        ? [typesOf[i][name]]
        : []
    );
    const declared = tables.flatMap((_, i) => name in typesOf[i] ? [typesOf[i][name]] : []);
    const type = present.length ? widenType(present) : widenType(declared);
    const values: unknown[] = [];
    tables.forEach((table, i) => {
      if (!(name in typesOf[i])) {
        for (let r = 0; r < table.numRows(); r++) values.push(null);
        return;
      }
      const part = table.array(name) as ArrayLike<unknown>;
      const same = typesOf[i][name] === type;
      for (let r = 0; r < part.length; r++) {
        values.push(same ? part[r] : convertTo(part[r], type));
      }
    });
    return { name, type, values };
  });
  return tableFromColumns(columns);
}

function hasValue(values: ArrayLike<unknown>): boolean {
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== null && values[i] !== undefined) return true;
  }
  return false;
}
