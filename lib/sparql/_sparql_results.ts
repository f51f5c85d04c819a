/**
 * Readers of the SPARQL 1.1 result formats (JSON, XML, CSV, TSV) into one
 * shape, {@linkcode ResultColumns}: the variables and, per variable, the terms
 * of every row in parallel arrays, with no object per term; or the boolean of
 * an ASK.
 *
 * @module
 */

import { ProtocolError } from "../errors/errors.ts";
import { XSD } from "./_triples.ts";
import {
  BNODE,
  emptyColumns,
  IRI,
  LITERAL,
  malformedResults,
  type ResultColumns,
  type TermColumn,
  VIRTUOSO_BLANK,
} from "./_result_columns.ts";
import { parseJsonResults } from "./_sparql_json.ts";
import { parseXmlResults } from "./_sparql_xml.ts";

export { parseJsonResults, parseXmlResults };

/** The formats this module reads. */
export type ResultFormat = "json" | "xml" | "csv" | "tsv";

/** The result format of a content type, or undefined. */
export function resultFormat(contentType: string): ResultFormat | undefined {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "application/sparql-results+json" || type === "application/json") return "json";
  if (
    type === "application/sparql-results+xml" || type === "application/xml" || type === "text/xml"
  ) return "xml";
  if (type === "text/csv") return "csv";
  if (type === "text/tab-separated-values") return "tsv";
  return undefined;
}

/** Reads a result document of the given format. */
export async function parseResults(
  text: string,
  format: ResultFormat,
): Promise<ResultColumns | boolean> {
  switch (format) {
    case "json":
      return await parseJsonResults(text);
    case "xml":
      return await parseXmlResults(text);
    case "csv":
      return parseCsvResults(text);
    case "tsv":
      return parseTsvResults(text);
  }
}

// ---- CSV (text/csv) ---------------------------------------------------------

/**
 * Reads SPARQL 1.1 CSV results. The format keeps no term types: every
 * value is a plain literal string, and an empty cell is unbound (CSV cannot
 * tell an empty string from an unbound value). A quoted value may hold line
 * breaks; Virtuoso's blank nodes (`nodeID://b1`) read as `_:b1`, the form
 * the format gives blank nodes.
 */
export function parseCsvResults(text: string): ResultColumns {
  const records = csvRecords(text);
  if (records.length === 0) throw malformedResults("CSV", "no header line");
  const vars = records[0];
  const out = emptyColumns(vars, records.length - 1);
  for (let r = 1; r < records.length; r++) {
    const cells = records[r];
    for (let v = 0; v < vars.length; v++) {
      const cell = cells[v];
      if (cell === undefined || cell === "") continue;
      if (cell.startsWith(VIRTUOSO_BLANK)) {
        out.columns[v].kinds[r - 1] = BNODE;
        out.columns[v].values[r - 1] = cell.slice(VIRTUOSO_BLANK.length);
        continue;
      }
      out.columns[v].kinds[r - 1] = LITERAL;
      out.columns[v].values[r - 1] = cell;
    }
  }
  return out;
}

/** RFC 4180 records: quoted fields with doubled quotes, CRLF or LF lines. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      if (c === "\r" && text[i + 1] === "\n") i++;
    } else field += c;
    i++;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

// ---- TSV (text/tab-separated-values) ----------------------------------------

/**
 * Why a TSV answer is refused, and what to do. Virtuoso (and others) send a
 * CSV-style TSV, with quoted column names and terms written as CSV cells, in
 * which an IRI cannot be told from a string nor a line break inside a value
 * from the end of a row: read as SPARQL TSV it gave rows that do not exist.
 */
const TSV_HINT =
  'The endpoint\'s TSV is not SPARQL 1.1 TSV (Virtuoso writes CSV-style TSV); ask for JSON with { format: "json" }';

function badTsv(line: number, detail: string, text: string): ProtocolError {
  return new ProtocolError(`Cannot read the SPARQL TSV results: line ${line}: ${detail}`, {
    details: text.length > 200 ? `${text.slice(0, 200)}...` : text,
    hint: TSV_HINT,
  });
}

/** A SPARQL variable as a TSV column name: `?name` or `$name`. */
const TSV_VARIABLE = /^[?$][\p{L}\p{N}_\u00B7\u0300-\u036F\u203F-\u2040]+$/u;

/**
 * Reads SPARQL 1.1 TSV results: a header of variables (`?x`), then one line
 * per row of terms in Turtle syntax, empty cells unbound. Anything else (a
 * column name without `?`, a row with more or fewer cells than the header, a
 * cell that is not a term) is refused with its line, never read as data.
 */
export function parseTsvResults(text: string): ResultColumns {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) throw malformedResults("TSV", "no header line");
  const header = lines[0].replace(/\r$/, "");
  const vars = header === "" ? [] : header.split("\t");
  for (const name of vars) {
    if (!TSV_VARIABLE.test(name)) {
      throw badTsv(1, `the column name ${JSON.stringify(name)} is not a variable (?name)`, header);
    }
  }
  const out = emptyColumns(vars.map((name) => name.slice(1)), lines.length - 1);
  for (let r = 1; r < lines.length; r++) {
    const line = lines[r].endsWith("\r") ? lines[r].slice(0, -1) : lines[r];
    const cells = vars.length === 0 && line === "" ? [] : line.split("\t");
    if (cells.length !== vars.length) {
      throw badTsv(r + 1, `${cells.length} cells for ${vars.length} variables`, line);
    }
    for (let v = 0; v < vars.length; v++) {
      const cell = cells[v];
      if (cell !== "" && !readTsvTerm(cell, out.columns[v], r - 1)) {
        throw badTsv(r + 1, `the cell ${JSON.stringify(cell)} is not an RDF term`, line);
      }
    }
  }
  return out;
}

/** An IRI as N-Triples writes it: no spaces, quotes or angle brackets inside. */
// deno-lint-ignore no-control-regex -- control characters are what an IRI may not hold
const TSV_IRI = /^<[^\u0000-\u0020<>"{}|^`]*>$/;
/** A blank node label. */
const TSV_BLANK = /^_:[\p{L}\p{N}_][\p{L}\p{N}_.\-\u00B7]*$/u;
/** A quoted literal: escapes, then a language tag or a datatype IRI. */
const TSV_LITERAL =
  // deno-lint-ignore no-control-regex -- control characters are what an IRI may not hold
  /^"((?:[^"\\\n\r]|\\.)*)"(?:@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)|\^\^<([^\u0000-\u0020<>"{}|^`]*)>)?$/;

/** Reads one cell's term into the column; false when it is not a term. */
function readTsvTerm(cell: string, column: TermColumn, row: number): boolean {
  const first = cell.charCodeAt(0);
  if (first === 60 /* < */) {
    if (!TSV_IRI.test(cell)) return false;
    column.kinds[row] = IRI;
    column.values[row] = unescapeString(cell.slice(1, -1));
    return true;
  }
  if (first === 95 /* _ */) {
    if (!TSV_BLANK.test(cell)) return false;
    column.kinds[row] = BNODE;
    column.values[row] = cell.slice(2);
    return true;
  }
  if (first === 34 /* " */) {
    const match = TSV_LITERAL.exec(cell);
    if (match === null) return false;
    column.kinds[row] = LITERAL;
    column.values[row] = unescapeString(match[1]);
    if (match[2] !== undefined) column.langs[row] = match[2];
    else if (match[3] !== undefined) column.datatypes[row] = unescapeString(match[3]);
    return true;
  }
  const datatype = bareLiteralDatatype(cell);
  if (datatype === undefined) return false;
  column.kinds[row] = LITERAL;
  column.values[row] = cell;
  column.datatypes[row] = datatype;
  return true;
}

/** The datatype Turtle gives a bare number or boolean; undefined for anything else. */
function bareLiteralDatatype(cell: string): string | undefined {
  if (/^[+-]?\d+$/.test(cell)) return `${XSD}integer`;
  if (/^[+-]?\d*\.\d+$/.test(cell)) return `${XSD}decimal`;
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(cell)) return `${XSD}double`;
  if (cell === "true" || cell === "false") return `${XSD}boolean`;
  return undefined;
}

const ESCAPES: Record<string, string> = {
  t: "\t",
  b: "\b",
  n: "\n",
  r: "\r",
  f: "\f",
  '"': '"',
  "'": "'",
  "\\": "\\",
};

function unescapeString(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, code: string) => {
    if (code[0] === "u" || code[0] === "U") {
      return String.fromCodePoint(parseInt(code.slice(1), 16));
    }
    return ESCAPES[code] ?? code;
  });
}
