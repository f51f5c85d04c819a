/**
 * Conversions from the values servers send to the types of table columns.
 * Every converter maps missing or unreadable values to null, so a column
 * holds its type or null and nothing else.
 *
 * @module
 */

/** The types a column can have. */
export type ColumnType =
  | "string"
  | "number"
  | "integer"
  | "bigint"
  | "boolean"
  | "date"
  | "array"
  | "object";

/** A converter from a raw value to a column value. */
export type Converter = (value: unknown) => unknown;

/** Text as is; numbers and booleans as their text; objects as JSON. */
export function toStringValue(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return null;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Numbers as is; numeric strings parsed; anything else null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isNaN(value) ? null : value;
  if (typeof value === "string") {
    if (value.trim() === "") return null;
    const number = Number(value);
    return Number.isNaN(number) ? null : number;
  }
  if (typeof value === "bigint") return Number(value);
  return null;
}

/** Like {@linkcode toNumber}, but a value with a fraction is null. */
export function toInteger(value: unknown): number | null {
  const number = toNumber(value);
  return number !== null && Number.isInteger(number) ? number : null;
}

/** Exact integers: bigints as is, integer numbers and digit strings converted. */
export function toBigInt(value: unknown): bigint | null {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : null;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  return null;
}

/** Booleans; `"true"`/`"false"` and 1/0 are read too. */
export function toBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === 1 || value === "1") return true;
  if (value === "false" || value === 0 || value === "0") return false;
  return null;
}

/** Below this a numeric timestamp counts as seconds, above as milliseconds (year 5138 in seconds). */
const SECONDS_LIMIT = 1e11;

/**
 * Dates from ISO 8601 strings, Unix seconds or Unix milliseconds (numbers
 * or digit strings; values below 10^11 are seconds). Unreadable values are
 * null.
 */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    return new Date(Math.abs(value) < SECONDS_LIMIT ? value * 1000 : value);
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "") return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return toDate(Number(text));
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time);
}

/** Arrays as is; a single value becomes a one-element array; null stays null. */
export function toArray(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return null;
  return [value];
}

/** Objects and other values as they are; undefined becomes null. */
export function toObject(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** The converter for each column type. */
export const CONVERTERS: Readonly<Record<ColumnType, Converter>> = {
  string: toStringValue,
  number: toNumber,
  integer: toInteger,
  bigint: toBigInt,
  boolean: toBoolean,
  date: toDate,
  array: toArray,
  object: toObject,
};

/** Whether a value is a valid non-null value of a column type. */
export function isOfType(value: unknown, type: ColumnType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && !Number.isNaN(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "bigint":
      return typeof value === "bigint";
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return value instanceof Date && !Number.isNaN(value.getTime());
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== undefined;
  }
}
