/**
 * JSON table files: each column's name and tidepool type, then its values
 * column by column, so a table comes back with its types, bigints included.
 * Values JSON cannot hold are written as text the type names: bigints as
 * digits, dates as ISO 8601, NaN and the infinities by name. Inside lists
 * and objects, bigints and dates are written as text and read back as text.
 * Plain JSON (an array of records, an object of columns or of values, as a
 * compute job's `summary.json` or another tool writes) is read by its shape,
 * and any other shape refused by name.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { columnTypes, tableFromColumns, type TypedColumn } from "../table/build_table.ts";
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

/** A plain JSON object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A column's type from its values: one JSON kind throughout (nulls aside)
 * gives that kind's type, a mix gives `object` with the values as they came.
 * Text that looks like a date stays text: JSON does not say it is one.
 */
function jsonColumn(name: string, values: unknown[]): TypedColumn {
  const kinds = new Set(
    values.filter((value) => value !== null && value !== undefined).map((value) =>
      Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value
    ),
  );
  const kind = kinds.size === 1 ? [...kinds][0] : "object";
  const type: ColumnType = kind === "string" || kind === "number" || kind === "boolean" ||
      kind === "array"
    ? kind
    : "object";
  return { name, type, values: values.map((value) => value ?? null) };
}

/** Records (JSON objects) as columns: every key any record has, in order of first appearance. */
function recordColumns(records: Record<string, unknown>[]): TypedColumn[] {
  const names: string[] = [];
  const known = new Set<string>();
  for (const record of records) {
    for (const name of Object.keys(record)) {
      if (!known.has(name) && known.add(name)) names.push(name);
    }
  }
  return names.map((name) => jsonColumn(name, records.map((record) => record[name] ?? null)));
}

/**
 * Plain JSON that no tidepool call wrote (a compute job's `summary.json`, an
 * export of another tool): an array of records is one row each, an object of
 * equally long arrays one column each, an object of records one row each
 * (its keys in a `key` column), an object of values one row; anything else
 * is refused, saying what the file holds.
 */
function plainJson(parsed: unknown, path: string): ColumnTable {
  const refuse = (holds: string, hint: string) =>
    new TidepoolError(`Cannot read a table from ${path}: the JSON holds ${holds}`, { hint });
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return tableFromColumns([]);
    if (parsed.every(isRecord)) return tableFromColumns(recordColumns(parsed));
    if (parsed.every((item) => !isRecord(item) && !Array.isArray(item))) {
      return tableFromColumns([jsonColumn("value", parsed)]);
    }
    throw refuse(
      "an array of lists or of mixed items, which name no columns",
      'Give an array of records ([{ "a": 1 }, ...]) or an object of columns ({ "a": [1, 2] })',
    );
  }
  if (isRecord(parsed)) {
    const values = Object.values(parsed);
    const lengths = new Set(values.map((value) => Array.isArray(value) ? value.length : -1));
    if (values.length > 0 && !lengths.has(-1) && lengths.size === 1) {
      return tableFromColumns(
        Object.entries(parsed).map(([name, column]) => jsonColumn(name, column as unknown[])),
      );
    }
    // Records by name ({ "did:op:1": { rows: 5 }, ... }): one row each, the name first.
    if (values.length > 0 && values.every(isRecord)) {
      const keyed = Object.entries(parsed).map(([key, record]) => ({
        key,
        ...(record as Record<string, unknown>),
      }));
      return tableFromColumns(recordColumns(keyed));
    }
    if (values.every((value) => !Array.isArray(value))) {
      return tableFromColumns(recordColumns([parsed]));
    }
    throw refuse(
      "an object whose values are lists of different lengths, or lists and single values mixed",
      "Read it with JSON.parse and make the table you mean with aq.from(...) or aq.table(...)",
    );
  }
  throw refuse(
    parsed === null ? "null" : `a single ${typeof parsed}`,
    "A table file holds an array of records or an object of columns",
  );
}

/** The table in a JSON file's text. */
export function decodeJson(text: string, path: string): ColumnTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TidepoolError(`Cannot read a table from ${path}: it is not valid JSON`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "The JSON parser said",
      hint: "Check that the file is complete JSON",
      cause: error,
    });
  }
  if (!isRecord(parsed) || !isRecord(parsed.schema) || !Array.isArray(parsed.schema.fields)) {
    return plainJson(parsed, path);
  }
  const { fields } = (parsed as Partial<TableJson>).schema!;
  const data = (parsed as Partial<TableJson>).data;
  if (!isRecord(data)) return plainJson(parsed, path);
  // Arquero's toJSON names its fields without tidepool types: its data is columns.
  if (fields.every((field) => isRecord(field) && field.type === undefined)) {
    return plainJson(data, path);
  }
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
