/**
 * JSON table files: each column's name and tidepool type, then its values
 * column by column, so a table comes back with its types, bigints included.
 * Values JSON cannot hold are written as text the type names: bigints as
 * digits, dates as ISO 8601, NaN and the infinities by name. Inside lists
 * and objects, bigints and dates are written as text and read back as text.
 * A plain array of rows (an older tidepool file, Arquero's `toJSON`) is read
 * as Arquero reads it.
 *
 * @module
 */

import { type ColumnTable, fromJSON } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { columnTypes, tableFromColumns } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";
import { conformColumn } from "../dataset/_arrow_columns.ts";

/** A JSON table file. */
interface TableJson {
  schema: { fields: { name: string; type: ColumnType }[] };
  data: Record<string, unknown[]>;
}

const TYPES: ReadonlySet<string> = new Set([
  "string",
  "number",
  "integer",
  "bigint",
  "boolean",
  "date",
  "array",
  "object",
]);

/** A nested value as JSON can hold it: bigints as digits, dates as ISO 8601. */
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? `${value}` : value;
}

/** A cell as JSON holds it: bigints as digits, dates as ISO 8601, NaN and the infinities by name. */
function encodeCell(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return `${value}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

/** A cell read back by its column's type. */
function decodeCell(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "bigint":
      return BigInt(value as string);
    case "date":
      return new Date(value as string);
    case "number":
    case "integer":
      return typeof value === "string" ? Number(value) : value;
    default:
      return value;
  }
}

/** The bytes of a JSON file of the table. */
export function encodeJson(table: ColumnTable): Uint8Array {
  const fields: TableJson["schema"]["fields"] = [];
  const data: TableJson["data"] = {};
  for (const [name, declared] of Object.entries(columnTypes(table))) {
    const { type, values } = conformColumn({
      name,
      type: declared,
      values: Array.from(table.array(name) as ArrayLike<unknown>),
    }, false);
    fields.push({ name, type });
    data[name] = values.map(encodeCell);
  }
  const file: TableJson = { schema: { fields }, data };
  return new TextEncoder().encode(JSON.stringify(file, jsonSafe));
}

/** The table in a JSON file's text. */
export function decodeJson(text: string, path: string): ColumnTable {
  const parsed = JSON.parse(text) as Partial<TableJson> | unknown[];
  if (Array.isArray(parsed)) return fromJSON(text);
  const fields = parsed?.schema?.fields;
  const data = parsed?.data;
  if (!Array.isArray(fields) || typeof data !== "object" || data === null) return fromJSON(text);
  const rows = Object.values(data)[0]?.length ?? 0;
  return tableFromColumns(fields.map(({ name, type }) => {
    const values = data[name];
    if (!TYPES.has(type) || !Array.isArray(values) || values.length !== rows) {
      throw new TidepoolError(`Cannot read column ${name} of ${path}: the file was changed`, {
        hint: "Save the table again with saveTable; its columns must each list one value per row",
      });
    }
    return { name, type, values: values.map((value) => decodeCell(value, type)) };
  }));
}
