/**
 * SELECT bindings into a typed table. Each column's type is chosen from the
 * datatypes of all its bound values, so a column holds one type:
 *
 * | datatypes in the column | column type | value |
 * |---|---|---|
 * | xsd:integer and its derived types | number, or bigint when a value is beyond 2^53 | the integer |
 * | xsd:decimal, double, float (mixed with integers too) | number | the number (`INF`, `NaN` as IEEE values) |
 * | xsd:boolean | boolean | the boolean |
 * | xsd:date, dateTime, dateTimeStamp | date | a `Date` (no time zone read as UTC) |
 * | anything else, or a mix | string | the IRI, `_:label` or lexical form |
 *
 * Unbound values are null. Companion columns `<var>_lang` and
 * `<var>_datatype` can be asked for, so a string column loses nothing.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TableBuilder } from "../table/build_table.ts";
import type { ColumnType } from "../table/convert.ts";
import { type ColumnSpec, defineSchema } from "../table/schema.ts";
import type { Bindings, ResultTerm } from "./_sparql_results.ts";
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
const DATE_TYPES = new Set(["date", "dateTime", "dateTimeStamp"].map((name) => XSD + name));
const BOOLEAN_TYPE = `${XSD}boolean`;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function family(term: ResultTerm): Family {
  if (term.type !== "literal" || term.datatype === undefined) return "string";
  const datatype = term.datatype;
  if (INTEGER_TYPES.has(datatype)) return "integer";
  if (NUMBER_TYPES.has(datatype)) return "number";
  if (datatype === BOOLEAN_TYPE) return "boolean";
  if (DATE_TYPES.has(datatype)) return "date";
  return "string";
}

/** The type of one column from the families of its bound values. */
function columnFamily(rows: Bindings["rows"], column: number): Family | "bigint" {
  let found: Family | undefined;
  let big = false;
  for (let r = 0; r < rows.length; r++) {
    const term = rows[r][column];
    if (term === undefined) continue;
    const next = family(term);
    if (next === "integer" && !big && term.value.replace(/^[+-]/, "").length >= 16) {
      const value = BigInt(term.value.trim());
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

const READERS: Record<Family | "bigint", (term: ResultTerm) => unknown> = {
  string: (term) => (term.type === "bnode" ? `_:${term.value}` : term.value),
  integer: (term) => Number(term.value),
  bigint: (term) => BigInt(term.value.trim().replace(/^\+/, "")),
  number: (term) => readNumber(term.value),
  boolean: (term) => term.value.trim() === "true" || term.value.trim() === "1",
  date: (term) => readDate(term.value),
};

const COLUMN_TYPES: Record<Family | "bigint", ColumnType> = {
  string: "string",
  integer: "number",
  bigint: "bigint",
  number: "number",
  boolean: "boolean",
  date: "date",
};

function readNumber(lexical: string): number {
  const text = lexical.trim();
  if (text === "INF" || text === "+INF") return Infinity;
  if (text === "-INF") return -Infinity;
  return Number(text);
}

/** xsd:date and xsd:dateTime; a value without a time zone is read as UTC. */
function readDate(lexical: string): Date | null {
  const text = lexical.trim();
  const zoned = /(Z|[+-]\d\d:\d\d)$/.test(text);
  const iso = /^-?\d{4,}-\d\d-\d\d$/.test(text) || zoned ? text : `${text}Z`;
  const dateOnly = /^(-?\d{4,}-\d\d-\d\d)(Z|[+-]\d\d:\d\d)?$/.exec(text);
  const time = Date.parse(dateOnly ? `${dateOnly[1]}T00:00:00${dateOnly[2] ?? "Z"}` : iso);
  return Number.isNaN(time) ? null : new Date(time);
}

/**
 * Bindings to a table whose columns follow the variables.
 *
 * The schema is made per answer, since the columns are the query's
 * variables; it is still declared as data through `defineSchema`.
 */
export function bindingsTable(bindings: Bindings, options: CompanionOptions = {}): ColumnTable {
  const { vars, rows } = bindings;
  const columns: ColumnSpec<unknown[]>[] = [];
  const cells: ((row: (ResultTerm | undefined)[]) => unknown)[] = [];
  vars.forEach((name, i) => {
    const kind = columnFamily(rows, i);
    const read = READERS[kind];
    cells.push((row) => (row[i] === undefined ? null : read(row[i]!)));
    columns.push({ name, type: COLUMN_TYPES[kind], description: `?${name}` });
  });
  const names = new Set(vars);
  vars.forEach((name, i) => {
    if (options.lang) {
      cells.push((row) => row[i]?.lang ?? null);
      columns.push({ name: companion(`${name}_lang`, names), type: "string" });
    }
    if (options.datatype) {
      cells.push((row) => literalDatatype(row[i]));
      columns.push({ name: companion(`${name}_datatype`, names), type: "string" });
    }
  });
  const schema = defineSchema<unknown[]>(
    columns.map((column, c) => ({ ...column, get: (row: unknown[]) => row[c] })),
  );
  const width = cells.length;
  const records = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const out = new Array(width);
    const row = rows[r];
    for (let c = 0; c < width; c++) out[c] = cells[c](row);
    records[r] = out;
  }
  const builder = new TableBuilder(schema);
  builder.add(records);
  return builder.build();
}

function companion(name: string, taken: Set<string>): string {
  let candidate = name;
  while (taken.has(candidate)) candidate = `${candidate}_`;
  taken.add(candidate);
  return candidate;
}

function literalDatatype(term: ResultTerm | undefined): string | null {
  if (!term || term.type !== "literal") return null;
  if (term.lang) return `${RDF}langString`;
  return term.datatype ?? `${XSD}string`;
}
