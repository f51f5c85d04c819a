/**
 * Typed columns to Arrow and back, the one place that decides how a tidepool
 * column type is stored in Parquet:
 *
 * - `string` utf8, `number` float64, `boolean` bool, `date` timestamp
 *   (milliseconds, UTC);
 * - `integer` and `bigint` int64; a `bigint` column with a value past int64
 *   (token amounts in wei can be) is stored as decimal digit text instead, and
 *   an `integer` one as float64, rather than wrapping around;
 * - `array` a Parquet list typed by its elements (strings, numbers, bigints,
 *   booleans or dates); a column whose arrays mix kinds or hold objects is
 *   stored as JSON text instead, so nothing is lost;
 * - `object` JSON text.
 *
 * The tidepool type of every column is kept in the file's metadata, so reading
 * gives back the same types and values; files from elsewhere are typed from
 * their Arrow types.
 *
 * @module
 */

import * as arrow from "@uwdata/flechette";
import type { ColumnType } from "../table/convert.ts";
import type { TypedColumn } from "../table/build_table.ts";

/** The schema metadata key holding `{ column: tidepool type }`. */
export const TYPES_KEY = "tidepool:types";
/** The schema metadata key holding the names of columns stored as JSON text. */
export const JSON_KEY = "tidepool:json";
/** The schema metadata key holding the names of bigint columns stored as digit text. */
export const DIGITS_KEY = "tidepool:digits";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether every bigint or integer value fits a signed 64-bit integer. */
function fitsInt64(values: readonly unknown[]): boolean {
  return values.every((value) => {
    if (typeof value === "number") return value >= -(2 ** 63) && value < 2 ** 63;
    return typeof value !== "bigint" || (value >= INT64_MIN && value <= INT64_MAX);
  });
}

type ElementKind = "string" | "number" | "bigint" | "boolean" | "date" | "mixed";

/** The kind shared by every element of every array in a column, or `mixed`. */
function elementKind(values: readonly unknown[]): ElementKind {
  let kind: ElementKind | undefined;
  for (const value of values) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (item === null || item === undefined) continue;
      const itemKind: ElementKind = item instanceof Date
        ? "date"
        : typeof item === "string" || typeof item === "number" || typeof item === "bigint" ||
            typeof item === "boolean"
        ? typeof item as ElementKind
        : "mixed";
      if (kind === undefined) kind = itemKind;
      else if (kind !== itemKind) return "mixed";
      if (kind === "mixed") return kind;
    }
  }
  return kind ?? "string";
}

const MILLISECONDS = arrow.TimeUnit.MILLISECOND;

function scalarType(kind: Exclude<ElementKind, "mixed">): arrow.DataType {
  switch (kind) {
    case "string":
      return arrow.utf8();
    case "number":
      return arrow.float64();
    case "bigint":
      return arrow.int64();
    case "boolean":
      return arrow.bool();
    case "date":
      return arrow.timestamp(MILLISECONDS, "UTC");
  }
}

function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, (_key, item) => typeof item === "bigint" ? `${item}` : item);
}

/**
 * Typed columns as an Arrow IPC stream, with the tidepool types in the schema metadata.
 *
 * @param columns Columns whose values are of their declared types or null.
 * @returns The Arrow IPC stream bytes.
 */
export function columnsToArrowIPC(columns: readonly TypedColumn[]): Uint8Array {
  const data: Record<string, unknown[]> = {};
  const types: Record<string, arrow.DataType> = {};
  const declared: Record<string, ColumnType> = {};
  const asJson: string[] = [];
  const asDigits: string[] = [];
  for (const column of columns) {
    declared[column.name] = column.type;
    let values = column.values;
    let type: arrow.DataType;
    switch (column.type) {
      case "string":
        type = arrow.utf8();
        break;
      case "number":
        type = arrow.float64();
        break;
      case "integer":
        if (!fitsInt64(values)) {
          type = arrow.float64();
          break;
        }
        type = arrow.int64();
        values = values.map((value) => typeof value === "number" ? BigInt(value) : value);
        break;
      case "bigint":
        if (fitsInt64(values)) {
          type = arrow.int64();
          break;
        }
        type = arrow.utf8();
        values = values.map((value) => typeof value === "bigint" ? `${value}` : null);
        asDigits.push(column.name);
        break;
      case "boolean":
        type = arrow.bool();
        break;
      case "date":
        type = arrow.timestamp(MILLISECONDS, "UTC");
        break;
      case "array": {
        const kind = elementKind(values);
        if (kind !== "mixed") {
          type = arrow.list(scalarType(kind));
          break;
        }
        type = arrow.utf8();
        values = values.map(jsonText);
        asJson.push(column.name);
        break;
      }
      case "object":
        type = arrow.utf8();
        values = values.map(jsonText);
        asJson.push(column.name);
        break;
    }
    data[column.name] = values;
    types[column.name] = type;
  }
  const table = arrow.tableFromArrays(data, { types });
  table.schema.metadata = new Map([
    [TYPES_KEY, JSON.stringify(declared)],
    [JSON_KEY, JSON.stringify(asJson)],
    [DIGITS_KEY, JSON.stringify(asDigits)],
  ]);
  return arrow.tableToIPC(table, { format: "stream" })!;
}

/** The tidepool type an Arrow type reads as, for files tidepool did not write. */
function typeOfArrow(type: arrow.DataType): ColumnType {
  switch (type.typeId) {
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
    case arrow.Type.Utf8View:
      return "string";
    case arrow.Type.Float:
    case arrow.Type.Decimal:
      return "number";
    case arrow.Type.Int:
      return (type as arrow.IntType).bitWidth === 64 ? "bigint" : "integer";
    case arrow.Type.Bool:
      return "boolean";
    case arrow.Type.Timestamp:
    case arrow.Type.Date:
      return "date";
    case arrow.Type.List:
    case arrow.Type.LargeList:
    case arrow.Type.FixedSizeList:
    case arrow.Type.ListView:
    case arrow.Type.LargeListView:
      return "array";
    case arrow.Type.Dictionary:
      return typeOfArrow((type as arrow.DictionaryType).dictionary);
    default:
      return "object";
  }
}

/** A list cell as a plain array (Arrow gives typed arrays for numeric lists). */
function plainArray(value: unknown): unknown[] | null {
  if (value === null || value === undefined) return null;
  return Array.from(value as ArrayLike<unknown>);
}

function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : null;
}

/**
 * Arrow IPC stream bytes as typed columns: the tidepool types from the
 * metadata when present, otherwise from the Arrow types.
 *
 * @param bytes An Arrow IPC stream.
 * @returns The columns with their types.
 */
export function arrowIPCToColumns(bytes: Uint8Array): TypedColumn[] {
  const table = arrow.tableFromIPC(bytes, { useBigInt: true, useDate: true });
  const metadata = table.schema.metadata;
  const declared = JSON.parse(metadata?.get(TYPES_KEY) ?? "{}") as Record<string, ColumnType>;
  const asJson = new Set(JSON.parse(metadata?.get(JSON_KEY) ?? "[]") as string[]);
  const asDigits = new Set(JSON.parse(metadata?.get(DIGITS_KEY) ?? "[]") as string[]);
  return table.schema.fields.map((field, i) => {
    const type = declared[field.name] ?? typeOfArrow(field.type);
    const raw = table.getChildAt(i)!.toArray() as ArrayLike<unknown>;
    let values: unknown[];
    if (asJson.has(field.name)) values = Array.from(raw, parseJson);
    else if (asDigits.has(field.name)) {
      values = Array.from(raw, (value) => typeof value === "string" ? BigInt(value) : null);
    } else if (type === "array") values = Array.from(raw, plainArray);
    else if (type === "integer") {
      values = Array.from(raw, (value) => typeof value === "bigint" ? Number(value) : value);
    } else values = Array.from(raw);
    return { name: field.name, type, values };
  });
}
