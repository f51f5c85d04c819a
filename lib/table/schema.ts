/**
 * Column schemas: the declared shape of every table tidepool returns.
 *
 * @module
 */

import { type ColumnType, type Converter, CONVERTERS } from "./convert.ts";

/** One column: its name, its type and where its value comes from. */
export interface ColumnSpec<R = Record<string, unknown>> {
  /** The column name. */
  name: string;
  /** The column type; values are converted to it or become null. */
  type: ColumnType;
  /**
   * A dotted path into the record (`metadata.name`); defaults to the name.
   * Ignored when `get` is given.
   */
  path?: string;
  /** Reads the raw value from a record; takes precedence over `path`. */
  get?: (record: R) => unknown;
  /** One line for the documentation of the column. */
  description?: string;
}

/**
 * A schema: the columns in order, with compiled readers. `Row` is the type of
 * one row of the tables built from it; a schema declared as
 * `TableSchema<Ddo, AssetRow>` fails `deno check` unless its columns give
 * exactly `AssetRow`, so the row type cannot drift from the columns.
 */
// The default row type takes any schema: only a schema annotated with a row type is held to it.
// deno-lint-ignore no-explicit-any
export interface TableSchema<R = Record<string, unknown>, Row = any> {
  /** The columns, in table order. */
  readonly columns: readonly ColumnSpec<R>[];
  /** The column names, in table order. */
  readonly names: readonly string[];
  /** One reader per column: raw record to converted value. */
  readonly readers: readonly ((record: R) => unknown)[];
  /**
   * Never set: carries the row type for `deno check` only (in and out, so a
   * schema's row type must match exactly).
   */
  readonly rowType?: (row: Row) => Row;
}

/** The value a column of a type holds (or null). */
export type ColumnValue<T extends ColumnType> = T extends "string" ? string
  : T extends "number" | "integer" ? number
  : T extends "bigint" ? bigint
  : T extends "boolean" ? boolean
  : T extends "date" ? Date
  : T extends "array" ? unknown[]
  : unknown;

/**
 * The row type that a list of columns gives: one property per column, of
 * the column's value type or null.
 */
export type RowOf<C extends readonly { name: string; type: ColumnType }[]> = {
  [K in C[number] as K["name"]]: ColumnValue<K["type"]> | null;
};

/**
 * The row type of a table built from records of type `T` (a client's plain
 * record, such as `TokenRecord`): one property per field, of the value a
 * column holds (a list as `unknown[]`) or null. A schema annotated with it
 * is held by `deno check` to the record's fields, so the two cannot drift.
 */
export type RecordRow<T> = { [K in keyof T]: CellOf<T[K]> };

/** The value a column holds for a field of type `V`, or null. */
export type CellOf<V> =
  | (NonNullable<V> extends readonly unknown[] ? unknown[] : NonNullable<V>)
  | null;

/**
 * Declares a schema. Names must be unique. The row type is read from the
 * column names and types, so annotate the result with the row interface
 * (`TableSchema<Record, MyRow>`) to have `deno check` hold them together.
 *
 * @param columns The columns in table order.
 * @returns The schema with compiled readers.
 *
 * @example A schema with a nested path and a date
 * ```ts
 * const schema = defineSchema<{ id: string; meta: { created: string } }>([
 *   { name: "id", type: "string" },
 *   { name: "created", type: "date", path: "meta.created" },
 * ]);
 * console.log(schema.names); // ["id", "created"]
 * ```
 */
export function defineSchema<
  R = Record<string, unknown>,
  const C extends readonly ColumnSpec<R>[] = readonly ColumnSpec<R>[],
>(
  columns: C,
): TableSchema<R, RowOf<C>> {
  const names = columns.map((column) => column.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) {
    throw new Error(`Schema has a duplicate column: ${duplicate}`);
  }
  return {
    columns,
    names,
    readers: columns.map((column) => compileReader(column)),
  };
}

function compileReader<R>(column: ColumnSpec<R>): (record: R) => unknown {
  const convert: Converter = CONVERTERS[column.type];
  if (column.get) {
    const get = column.get;
    return (record) => convert(get(record));
  }
  const path = column.path ?? column.name;
  if (!path.includes(".")) {
    return (record) => convert((record as Record<string, unknown>)[path]);
  }
  const steps = path.split(".");
  return (record) => convert(readPath(record, steps));
}

/** Reads a dotted path from nested objects; undefined where a step is missing. */
export function readPath(record: unknown, steps: readonly string[]): unknown {
  let value: unknown = record;
  for (const step of steps) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * The schema as Markdown table rows (`| name | type | description |`), so
 * documentation comes from the same place as the code.
 */
export function schemaMarkdown(schema: TableSchema<never>): string {
  const rows = schema.columns.map((column) =>
    `| \`${column.name}\` | ${column.type} | ${column.description ?? ""} |`
  );
  return ["| column | type | meaning |", "|---|---|---|", ...rows].join("\n");
}
