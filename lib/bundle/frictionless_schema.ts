/**
 * A Frictionless Table Schema (Data Package 2.0) from a table's column
 * types, for the `datapackage.json` of a bundle. Written here rather than
 * with a Frictionless package, since those on npm are stale.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { columnTypes } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";

/** The Table Schema profile the descriptors follow. */
export const TABLE_SCHEMA_PROFILE = "https://datapackage.org/profiles/2.0/tableschema.json";

/** A Table Schema field type, as {@linkcode frictionlessSchema} uses them. */
export type FrictionlessType =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "datetime"
  | "array"
  | "object"
  | "any";

/** One field of a {@linkcode FrictionlessSchema}. */
export interface FrictionlessField {
  /** The column name. */
  readonly name: string;
  /** The Table Schema type. */
  readonly type: FrictionlessType;
  /** The column's tidepool type, which the Table Schema type comes from. */
  readonly description: string;
  /** Boolean fields: the one text read as true. */
  readonly trueValues?: readonly string[];
  /** Boolean fields: the one text read as false. */
  readonly falseValues?: readonly string[];
}

/** A Frictionless Table Schema descriptor. */
export interface FrictionlessSchema {
  /** The Table Schema 2.0 profile. */
  readonly $schema: string;
  /** One field per column, in column order. */
  readonly fields: readonly FrictionlessField[];
  /** The text read as missing: only the empty cell. */
  readonly missingValues: readonly string[];
}

/** The Table Schema type of each tidepool type but `object`, which depends on its values. */
const FIELD_TYPES: Readonly<Record<Exclude<ColumnType, "object">, FrictionlessType>> = {
  string: "string",
  number: "number",
  integer: "integer",
  bigint: "integer",
  boolean: "boolean",
  date: "datetime",
  array: "array",
};

/** Whether a value is a JSON object (not an array, not a date). */
function isJsonObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}

/**
 * The Table Schema type of a column. An `object` column is `object` when
 * every value present is a JSON object, otherwise `any` (its cells are JSON
 * text of strings, numbers or lists as well).
 */
function fieldType(type: ColumnType, values: ArrayLike<unknown>): FrictionlessType {
  if (type !== "object") return FIELD_TYPES[type];
  let present = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) continue;
    if (!isJsonObject(value)) return "any";
    present = true;
  }
  return present ? "object" : "any";
}

/**
 * The Frictionless Table Schema of a table, one field per column, from its
 * tidepool column types (`columnTypes`). The mapping, and how the bundle
 * writes each type in CSV:
 *
 * | tidepool  | Table Schema | CSV cell |
 * |-----------|--------------|----------|
 * | `string`  | `string`     | the text (formula-like text prefixed with `'` unless turned off) |
 * | `number`  | `number`     | `1.5`, `1E+21`; `NaN`, `INF`, `-INF` |
 * | `integer` | `integer`    | digits |
 * | `bigint`  | `integer`    | digits, exact past 2^53 (in Parquet: int64, or digit text past int64) |
 * | `boolean` | `boolean`    | `true` / `false` (the only true and false values declared) |
 * | `date`    | `datetime`   | UTC with milliseconds, `2026-06-30T00:00:00.000Z`, even at midnight |
 * | `array`   | `array`      | JSON array text |
 * | `object`  | `object` when every value is a JSON object, else `any` | JSON text |
 *
 * A missing value (null) is the empty cell, the one entry of
 * `missingValues`; an empty text cell reads as missing too, as CSV cannot
 * tell them apart (the Parquet file can).
 *
 * @param table Any Arquero table.
 * @returns The Table Schema descriptor.
 *
 * @example The schema of a small table
 * ```ts
 * import * as aq from "arquero";
 * const schema = frictionlessSchema(aq.table({ id: ["a"], seen: [new Date(0)], n: [1n] }));
 * console.log(schema.fields.map((field) => field.type)); // ["string", "datetime", "integer"]
 * ```
 */
export function frictionlessSchema(table: ColumnTable): FrictionlessSchema {
  const fields = Object.entries(columnTypes(table)).map(([name, type]): FrictionlessField => {
    const field = {
      name,
      type: fieldType(type, table.array(name) as ArrayLike<unknown>),
      description: `tidepool type: ${type}`,
    };
    return type === "boolean" ? { ...field, trueValues: ["true"], falseValues: ["false"] } : field;
  });
  return { $schema: TABLE_SCHEMA_PROFILE, fields, missingValues: [""] };
}
