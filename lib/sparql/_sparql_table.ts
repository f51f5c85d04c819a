/**
 * SELECT bindings into a typed table. Each column's type is chosen from the
 * datatypes of all its bound values, so a column holds one type:
 *
 * | datatypes in the column | column type | value |
 * |---|---|---|
 * | xsd:integer and its derived types | number, or bigint when a value is beyond 2^53 | the integer |
 * | xsd:decimal, double, float (mixed with integers too) | number | the number (`INF`, `NaN` as IEEE values) |
 * | xsd:boolean | boolean | the boolean (`true`, `false`, `1`, `0`) |
 * | xsd:date, dateTime, dateTimeStamp | date | a `Date` (no time zone read as UTC) |
 * | anything else, or a mix | string | the IRI, `_:label` or lexical form |
 *
 * A column is typed only when every bound value converts exactly: an
 * xsd:decimal (or an integer among decimals and doubles) that a double
 * cannot hold (`9007199254741993`, `0.12345678901234567`), a time with
 * digits past the millisecond, a date `Date` cannot hold, or a value that is
 * not a valid lexical form of its datatype (`"0x10"^^xsd:integer`,
 * `"yes"^^xsd:boolean`) keeps the column a string column of the values as
 * sent. Unbound values are null. Companion columns `<var>_lang` and
 * `<var>_datatype` can be asked for, so a string column loses nothing.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { tableFromColumns, type TypedColumn } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";
import { BNODE, LITERAL, type ResultColumns, type TermColumn } from "./_result_columns.ts";
import { RDF, XSD } from "./_triples.ts";

/** Companion columns of a SELECT table. */
export interface CompanionOptions {
  /** Add `<var>_lang`: the language tag of literals, else null. */
  lang?: boolean;
  /** Add `<var>_datatype`: the datatype IRI of literals, else null. */
  datatype?: boolean;
}

type Family = "integer" | "number" | "boolean" | "date" | "string";

const INTEGER_TYPES = new Set(
  [
    "integer",
    "int",
    "long",
    "short",
    "byte",
    "nonNegativeInteger",
    "nonPositiveInteger",
    "positiveInteger",
    "negativeInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
  ].map((name) => XSD + name),
);
const NUMBER_TYPES = new Set(["decimal", "double", "float"].map((name) => XSD + name));
const DOUBLE_TYPES = new Set(["double", "float"].map((name) => XSD + name));
const DATE_TYPES = new Set(["date", "dateTime", "dateTimeStamp"].map((name) => XSD + name));
const BOOLEAN_TYPE = `${XSD}boolean`;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function datatypeFamily(datatype: string | undefined): Family {
  if (datatype === undefined) return "string";
  if (INTEGER_TYPES.has(datatype)) return "integer";
  if (NUMBER_TYPES.has(datatype)) return "number";
  if (datatype === BOOLEAN_TYPE) return "boolean";
  if (DATE_TYPES.has(datatype)) return "date";
  return "string";
}

/** The type of one column from the families of its bound values. */
function columnFamily(column: TermColumn, length: number): Family | "bigint" {
  const { kinds, values, datatypes } = column;
  let found: Family | undefined;
  let big = false;
  // Results repeat one datatype down a column: remember the last one read, so
  // most terms cost a string comparison instead of a set lookup.
  let lastDatatype: string | undefined;
  let lastFamily: Family = "string";
  for (let r = 0; r < length; r++) {
    const kind = kinds[r];
    if (kind === 0) continue;
    let next: Family;
    if (kind !== LITERAL) next = "string";
    else {
      const datatype = datatypes[r];
      if (datatype !== lastDatatype || r === 0) {
        lastDatatype = datatype;
        lastFamily = datatypeFamily(datatype);
      }
      next = lastFamily;
    }
    if (next === "integer" && !big && values[r]!.length >= 16 && isInteger(values[r]!)) {
      const value = BigInt(values[r]!.trim().replace(/^\+/, ""));
      big = value > MAX_SAFE || value < -MAX_SAFE;
    }
    if (found === undefined || found === next) found = next;
    else if (
      (found === "integer" && next === "number") || (found === "number" && next === "integer")
    ) found = "number";
    else return "string";
  }
  if (found === "integer") return big ? "bigint" : "integer";
  return found ?? "string";
}

const COLUMN_TYPES: Record<Family | "bigint", ColumnType> = {
  string: "string",
  integer: "number",
  bigint: "bigint",
  number: "number",
  boolean: "boolean",
  date: "date",
};

/**
 * Converts a column's lexical values to its family, null where unbound; or
 * undefined when a bound value does not convert exactly, so that the column
 * is kept as the strings sent.
 */
function convertColumn(
  column: TermColumn,
  length: number,
  family: Family | "bigint",
): unknown[] | undefined {
  const { kinds, values, datatypes } = column;
  const out: unknown[] = new Array(length);
  switch (family) {
    case "string":
      for (let r = 0; r < length; r++) {
        const kind = kinds[r];
        out[r] = kind === 0 ? null : kind === BNODE ? `_:${values[r]}` : values[r];
      }
      break;
    case "integer":
      for (let r = 0; r < length; r++) {
        if (kinds[r] === 0) out[r] = null;
        else if (isInteger(values[r]!)) out[r] = Number(values[r]);
        else return undefined;
      }
      break;
    case "number":
      for (let r = 0; r < length; r++) {
        if (kinds[r] === 0) {
          out[r] = null;
          continue;
        }
        const value = readNumber(values[r]!, DOUBLE_TYPES.has(datatypes[r]!));
        if (value === undefined) return undefined;
        out[r] = value;
      }
      break;
    case "bigint":
      for (let r = 0; r < length; r++) {
        if (kinds[r] === 0) out[r] = null;
        else if (isInteger(values[r]!)) {
          out[r] = BigInt(values[r]!.trim().replace(/^\+/, ""));
        } else return undefined;
      }
      break;
    case "boolean":
      for (let r = 0; r < length; r++) {
        if (kinds[r] === 0) {
          out[r] = null;
          continue;
        }
        const text = values[r]!.trim();
        if (text === "true" || text === "1") out[r] = true;
        else if (text === "false" || text === "0") out[r] = false;
        else return undefined;
      }
      break;
    case "date":
      for (let r = 0; r < length; r++) {
        if (kinds[r] === 0) {
          out[r] = null;
          continue;
        }
        const date = readDate(values[r]!);
        if (date === null || finerThanMilliseconds(values[r]!)) return undefined;
        out[r] = date;
      }
      break;
  }
  return out;
}

/**
 * Whether `text` is a plain number: an optional sign, digits and (with
 * `point`) at most one `.`. The common forms are told this way, several
 * times faster than a regular expression; the rest (spaces, exponents,
 * `INF`) take the expressions below.
 */
function plainNumber(text: string, point: boolean): boolean {
  const length = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === PLUS || c === MINUS) i++;
  let digits = 0;
  for (; i < length; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === DOT && point) point = false;
    else return false;
  }
  return digits > 0;
}

const DOT = 46; // "."

function isInteger(text: string): boolean {
  return plainNumber(text, false) || INTEGER_LEXICAL.test(text);
}

/** xsd:integer and its derived types (whitespace is collapsed, so allowed around). */
const INTEGER_LEXICAL = /^\s*[+-]?\d+\s*$/;
/** xsd:decimal. */
const DECIMAL_LEXICAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
/** xsd:double and xsd:float. */
const DOUBLE_LEXICAL = /^\s*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)\s*$/;
/** Any decimal of at most 15 significant digits is held exactly by a double. */
const SAFE_DIGITS = 15;

/**
 * The number of an xsd:integer, decimal, double or float; undefined for a
 * value that is not a valid lexical form, or an integer or decimal that a
 * double cannot hold exactly (a double's own values always fit).
 */
function readNumber(lexical: string, double: boolean): number | undefined {
  const plain = plainNumber(lexical, true);
  if (double) {
    if (!plain && !DOUBLE_LEXICAL.test(lexical)) return undefined;
    const value = Number(lexical);
    if (!Number.isNaN(value)) return value;
    const text = lexical.trim();
    if (text === "INF" || text === "+INF") return Infinity;
    if (text === "-INF") return -Infinity;
    return NaN;
  }
  if (!plain && !DECIMAL_LEXICAL.test(lexical)) return undefined;
  const value = Number(lexical);
  if (lexical.length <= SAFE_DIGITS) return value;
  return decimalKey(lexical) === decimalKey(String(value)) ? value : undefined;
}

/**
 * A decimal's value as `digits e exponent`, without leading or trailing
 * zeros, so two texts of the same number compare equal (`1.50`, `+01.5`,
 * `1.5e0`).
 */
function decimalKey(text: string): string {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (match === null) return text;
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let digits = (whole + fraction).replace(/^0+/, "");
  let power = Number(exponent) - fraction.length;
  const trimmed = digits.replace(/0+$/, "");
  power += digits.length - trimmed.length;
  digits = trimmed;
  if (digits === "") return "0";
  return `${sign === "-" ? "-" : ""}${digits}e${power}`;
}

/** Whether a time has non-zero digits past the millisecond, which a `Date` cannot hold. */
function finerThanMilliseconds(lexical: string): boolean {
  const dot = lexical.indexOf(".", 17);
  if (dot < 0) return false;
  for (let i = dot + 4; i < lexical.length; i++) {
    const c = lexical.charCodeAt(i);
    if (c < 48 || c > 57) return false;
    if (c !== 48) return true;
  }
  return false;
}

const Z = 90; // "Z"
const COLON = 58; // ":"
const PLUS = 43; // "+"
const MINUS = 45; // "-"
const T = 84; // "T"

/**
 * xsd:date and xsd:dateTime; a value without a time zone is read as UTC. The
 * common forms (`2024-05-01T10:00:00Z`, with an offset, without a zone, a
 * plain date) are told apart by their characters; the rest take the general path.
 */
function readDate(lexical: string): Date | null {
  const length = lexical.length;
  if (length >= 19 && lexical.charCodeAt(10) === T && lexical.charCodeAt(4) === MINUS) {
    const last = lexical.charCodeAt(length - 1);
    const sign = lexical.charCodeAt(length - 6);
    const zoned = last === Z ||
      ((sign === PLUS || sign === MINUS) && lexical.charCodeAt(length - 3) === COLON);
    if (zoned || (last >= 48 && last <= 57)) {
      const time = Date.parse(zoned ? lexical : `${lexical}Z`);
      return Number.isNaN(time) ? null : new Date(time);
    }
  }
  if (length === 10 && lexical.charCodeAt(4) === MINUS && lexical.charCodeAt(7) === MINUS) {
    const time = Date.parse(`${lexical}T00:00:00Z`);
    return Number.isNaN(time) ? null : new Date(time);
  }
  return readDateGeneral(lexical);
}

function readDateGeneral(lexical: string): Date | null {
  const text = lexical.trim();
  const zoned = /(Z|[+-]\d\d:\d\d)$/.test(text);
  const iso = /^-?\d{4,}-\d\d-\d\d$/.test(text) || zoned ? text : `${text}Z`;
  const dateOnly = /^(-?\d{4,}-\d\d-\d\d)(Z|[+-]\d\d:\d\d)?$/.exec(text);
  const time = Date.parse(dateOnly ? `${dateOnly[1]}T00:00:00${dateOnly[2] ?? "Z"}` : iso);
  return Number.isNaN(time) ? null : new Date(time);
}

/**
 * Result columns to a table whose columns follow the variables, each typed
 * from the datatypes of its bound values, then the companion columns asked for.
 */
export function bindingsTable(result: ResultColumns, options: CompanionOptions = {}): ColumnTable {
  const { vars, length } = result;
  const columns: TypedColumn[] = vars.map((name, v) => {
    const column = result.columns[v];
    const family = columnFamily(column, length);
    const values = convertColumn(column, length, family);
    // A value that would not convert exactly keeps the whole column as sent.
    if (values === undefined) {
      return { name, type: "string", values: convertColumn(column, length, "string")! };
    }
    return { name, type: COLUMN_TYPES[family], values };
  });
  const names = new Set(vars);
  vars.forEach((name, v) => {
    const column = result.columns[v];
    if (options.lang) {
      const values = new Array(length);
      for (let r = 0; r < length; r++) values[r] = column.langs[r] ?? null;
      columns.push({ name: companion(`${name}_lang`, names), type: "string", values });
    }
    if (options.datatype) {
      const values = new Array(length);
      for (let r = 0; r < length; r++) values[r] = literalDatatype(column, r);
      columns.push({ name: companion(`${name}_datatype`, names), type: "string", values });
    }
  });
  return tableFromColumns(columns);
}

function companion(name: string, taken: Set<string>): string {
  let candidate = name;
  while (taken.has(candidate)) candidate = `${candidate}_`;
  taken.add(candidate);
  return candidate;
}

function literalDatatype(column: TermColumn, row: number): string | null {
  if (column.kinds[row] !== LITERAL) return null;
  if (column.langs[row]) return `${RDF}langString`;
  return column.datatypes[row] ?? `${XSD}string`;
}
