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
import { TidepoolError } from "../errors/errors.ts";
import type { ColumnType } from "../table/convert.ts";
import { convertTo, widenType } from "../table/concat_tables.ts";
import type { TypedColumn } from "../table/build_table.ts";
import { utf8Column, utf8ListColumn } from "./_arrow_strings.ts";

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
/** Built columns read back exact: int64 as bigint, timestamps as dates. */
const EXTRACT = { useBigInt: true, useDate: true };

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

/** How a column's values are stored: as they are, as JSON text, or as decimal digit text. */
export type Storage = "plain" | "json" | "digits";

/** One column in Arrow form, with its tidepool type and storage. */
export interface EncodedColumn {
  name: string;
  type: ColumnType;
  storage: Storage;
  column: arrow.Column<unknown>;
}

/** Rows encoded together: columns of the same length. */
export interface EncodedChunk {
  length: number;
  columns: EncodedColumn[];
}

/** The bytes of a chunk's Arrow buffers: what a writer holds for it until the flush. */
export function chunkBytes(chunk: EncodedChunk): number {
  let bytes = 0;
  for (const { column } of chunk.columns) {
    for (const batch of column.data) bytes += batchBytes(batch);
  }
  return bytes;
}

function batchBytes(batch: arrow.Batch<unknown>): number {
  let bytes = (batch.values?.byteLength ?? 0) + (batch.offsets?.byteLength ?? 0) +
    (batch.validity?.byteLength ?? 0);
  for (const child of batch.children ?? []) bytes += batchBytes(child);
  return bytes;
}

/** A value as text, for a column stored as strings: dates as ISO 8601, the rest as JSON. */
function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  return jsonText(value);
}

/** Whether a present value is of a scalar column's declared type. */
function fitsScalar(value: unknown, type: ColumnType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "bigint":
      return typeof value === "bigint";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    default:
      return true;
  }
}

/**
 * A column as a file can hold it, losing no value: an `integer` column with
 * a fraction is a `number` one; a scalar column holding values of another
 * kind (numbers and strings mixed, as JSON answers can be) is stored as
 * strings. A list of integers past 64 bits cannot be a Parquet or Arrow
 * list, and is refused, naming the column.
 *
 * @param column The column as the table holds it.
 * @param int64Lists Whether lists are stored as lists of 64-bit integers (Parquet, Arrow).
 * @returns The column to encode.
 * @throws {TidepoolError} For a list of integers past 64 bits, when lists hold 64-bit integers.
 */
export function conformColumn(column: TypedColumn, int64Lists = true): TypedColumn {
  const { name, type, values } = column;
  if (int64Lists && type === "array" && elementKind(values) === "bigint") {
    const past = values.find((value) => Array.isArray(value) && !fitsInt64(value));
    if (past !== undefined) {
      throw new TidepoolError(
        `Cannot save column ${name}: a list holds an integer past 64 bits (${
          (past as unknown[]).find((item) => !fitsInt64([item]))
        })`,
        {
          hint:
            `Parquet and Arrow lists hold 64-bit integers; store the column as text first: table.derive({ ${name}: (d) => op.json(d.${name}) }), or save it as CSV or JSON`,
        },
      );
    }
  }
  const foreign = values.filter((value) =>
    value !== null && value !== undefined && !fitsScalar(value, type)
  );
  if (foreign.length === 0) return column;
  if (type === "integer" && foreign.every((value) => typeof value === "number")) {
    return { name, type: "number", values };
  }
  return { name, type: "string", values: values.map(cellText) };
}

/**
 * Encodes one typed column in Arrow form (compact buffers: what a writer
 * holds between flushes instead of JavaScript values).
 *
 * @param typed Values of the declared type or null (see {@linkcode conformColumn}).
 * @returns The Arrow column and how it is stored.
 */
export function encodeColumn(typed: TypedColumn): EncodedColumn {
  const column = conformColumn(typed);
  let values = column.values;
  let type: arrow.DataType;
  let storage: Storage = "plain";
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
      storage = "digits";
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
      storage = "json";
      break;
    }
    case "object":
      type = arrow.utf8();
      values = values.map(jsonText);
      storage = "json";
      break;
  }
  return { name: column.name, type: column.type, storage, column: buildColumn(values, type) };
}

/** A string that tells Arrow types apart. */
function typeKey(type: arrow.DataType): string {
  return JSON.stringify(type, (_key, value) => typeof value === "bigint" ? `${value}` : value);
}

/** Decodes an encoded column's values back to their tidepool values. */
function decodeValues(encoded: EncodedColumn): unknown[] {
  return decodeStored(
    encoded.column.toArray() as ArrayLike<unknown>,
    encoded.type,
    encoded.storage,
  );
}

/**
 * Joins chunks into one column per name, in order of first appearance: a
 * chunk without a column gets nulls; chunks that stored a column
 * differently (a list in one, JSON text in another, or another type) are
 * re-encoded together, as one widened type.
 */
function mergeChunks(chunks: readonly EncodedChunk[]): EncodedColumn[] {
  const names: string[] = [];
  const byName = new Map<string, (EncodedColumn | undefined)[]>();
  chunks.forEach((chunk, c) => {
    for (const column of chunk.columns) {
      let list = byName.get(column.name);
      if (!list) {
        list = new Array(chunks.length).fill(undefined);
        byName.set(column.name, list);
        names.push(column.name);
      }
      list[c] = column;
    }
  });
  const agrees = (parts: (EncodedColumn | undefined)[]) => {
    const present = parts.filter((part): part is EncodedColumn => part !== undefined);
    const key = typeKey(present[0].column.type);
    return present.every((part) =>
      part.storage === present[0].storage && part.type === present[0].type &&
      typeKey(part.column.type) === key
    );
  };
  // Batches of one chunk must line up across columns: when any column has to
  // be re-encoded as one batch, every column is, from its decoded values.
  const rebuild = names.some((name) => !agrees(byName.get(name)!));
  return names.map((name) => {
    const parts = byName.get(name)!;
    const present = parts.filter((part): part is EncodedColumn => part !== undefined);
    const first = present[0];
    if (!rebuild) {
      const batches = parts.flatMap((part, c) =>
        part ? part.column.data : arrow.columnFromArray(
          new Array(chunks[c].length).fill(null),
          first.column.type,
          EXTRACT,
        )
          .data
      );
      return { ...first, column: new arrow.Column(batches, first.column.type) };
    }
    const valued = present.filter((part) => part.column.nullCount < part.column.length);
    const type = widenType((valued.length ? valued : present).map((part) => part.type));
    const values = parts.flatMap((part, c) => {
      if (!part) return new Array(chunks[c].length).fill(null);
      const decoded = decodeValues(part);
      return part.type === type ? decoded : decoded.map((value) => convertTo(value, type));
    });
    return encodeColumn({ name, type, values });
  });
}

/**
 * Encoded chunks as one Arrow IPC stream (a record batch per chunk), with
 * the tidepool types and storages in the schema metadata.
 *
 * @param chunks Chunks of encoded columns.
 * @param metadata More schema metadata (a table's provenance).
 * @param format An IPC stream (for parquet-wasm), or an IPC file (`.arrow`).
 * @returns The Arrow IPC bytes.
 */
export function chunksToArrowIPC(
  chunks: readonly EncodedChunk[],
  metadata: Readonly<Record<string, string>> = {},
  format: "stream" | "file" = "stream",
): Uint8Array {
  const columns = chunks.length === 1 ? chunks[0].columns : mergeChunks(chunks);
  const data: Record<string, arrow.Column<unknown>> = {};
  const declared: Record<string, ColumnType> = {};
  for (const column of columns) {
    data[column.name] = column.column;
    declared[column.name] = column.type;
  }
  const table = arrow.tableFromColumns(data);
  table.schema.metadata = new Map([
    [TYPES_KEY, JSON.stringify(declared)],
    [JSON_KEY, JSON.stringify(columns.filter((c) => c.storage === "json").map((c) => c.name))],
    [DIGITS_KEY, JSON.stringify(columns.filter((c) => c.storage === "digits").map((c) => c.name))],
    ...Object.entries(metadata),
  ]);
  return arrow.tableToIPC(table, { format })!;
}

/**
 * Typed columns as an Arrow IPC stream, with the tidepool types in the schema metadata.
 *
 * @param columns Columns whose values are of their declared types or null.
 * @param metadata More schema metadata (a table's provenance).
 * @param format An IPC stream (for parquet-wasm), or an IPC file (`.arrow`).
 * @returns The Arrow IPC bytes.
 */
export function columnsToArrowIPC(
  columns: readonly TypedColumn[],
  metadata: Readonly<Record<string, string>> = {},
  format: "stream" | "file" = "stream",
): Uint8Array {
  return chunksToArrowIPC(
    [{
      length: columns[0]?.values.length ?? 0,
      columns: columns.map(encodeColumn),
    }],
    metadata,
    format,
  );
}

/** Strings and lists of strings through the direct builders, the rest through flechette's. */
function buildColumn(values: unknown[], type: arrow.DataType): arrow.Column<unknown> {
  // Flechette makes no batch for no rows; every column must agree with it.
  if (values.length === 0) return arrow.columnFromArray(values, type, EXTRACT);
  if (type.typeId === arrow.Type.Utf8) return utf8Column(values);
  if (
    type.typeId === arrow.Type.List &&
    (type as arrow.ListType).children[0].type.typeId === arrow.Type.Utf8
  ) {
    return utf8ListColumn(values);
  }
  return arrow.columnFromArray(values, type, EXTRACT);
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
  return readArrowIPC(bytes).columns;
}

/**
 * Arrow IPC bytes as typed columns (see {@linkcode arrowIPCToColumns}) and
 * the schema metadata.
 *
 * @param bytes An Arrow IPC stream or file.
 * @returns The columns and the metadata (empty when there is none).
 */
export function readArrowIPC(
  bytes: Uint8Array,
): { columns: TypedColumn[]; metadata: ReadonlyMap<string, string> } {
  const table = arrow.tableFromIPC(bytes, { useBigInt: true, useDate: true });
  const metadata = table.schema.metadata ?? new Map<string, string>();
  return { columns: columnsOf(table, metadata), metadata };
}

function columnsOf(table: arrow.Table, metadata: ReadonlyMap<string, string>): TypedColumn[] {
  const declared = JSON.parse(metadata?.get(TYPES_KEY) ?? "{}") as Record<string, ColumnType>;
  const asJson = new Set(JSON.parse(metadata?.get(JSON_KEY) ?? "[]") as string[]);
  const asDigits = new Set(JSON.parse(metadata?.get(DIGITS_KEY) ?? "[]") as string[]);
  return table.schema.fields.map((field, i) => {
    const type = declared[field.name] ?? typeOfArrow(field.type);
    const storage: Storage = asJson.has(field.name)
      ? "json"
      : asDigits.has(field.name)
      ? "digits"
      : "plain";
    const raw = table.getChildAt(i)!.toArray() as ArrayLike<unknown>;
    return { name: field.name, type, values: decodeStored(raw, type, storage) };
  });
}

/** Stored Arrow values back to tidepool values of the type. */
function decodeStored(raw: ArrayLike<unknown>, type: ColumnType, storage: Storage): unknown[] {
  if (storage === "json") return Array.from(raw, parseJson);
  if (storage === "digits") {
    return Array.from(raw, (value) => typeof value === "string" ? BigInt(value) : null);
  }
  if (type === "array") return Array.from(raw, plainArray);
  if (type === "integer") {
    return Array.from(raw, (value) => typeof value === "bigint" ? Number(value) : value);
  }
  return Array.from(raw);
}
