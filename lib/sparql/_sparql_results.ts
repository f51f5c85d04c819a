/**
 * Readers of the SPARQL 1.1 result formats (JSON, XML, CSV, TSV) into one
 * shape, {@linkcode ResultColumns}: the variables and, per variable, the terms
 * of every row in parallel arrays, with no object per term; or the boolean of
 * an ASK.
 *
 * @module
 */

import { XSD } from "./_triples.ts";
import {
  BNODE,
  emptyColumns,
  IRI,
  LITERAL,
  malformedResults,
  type ResultColumns,
  type TermColumn,
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
 * tell an empty string from an unbound value).
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

/** Reads SPARQL 1.1 TSV results: terms in Turtle syntax, empty cells unbound. */
export function parseTsvResults(text: string): ResultColumns {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) throw malformedResults("TSV", "no header line");
  const vars = lines[0].split("\t").map((name) => name.replace(/^[?$]/, ""));
  const out = emptyColumns(vars, lines.length - 1);
  for (let r = 1; r < lines.length; r++) {
    const cells = lines[r].split("\t");
    for (let v = 0; v < vars.length; v++) {
      const cell = cells[v];
      if (cell !== undefined && cell !== "") readTsvTerm(cell, out.columns[v], r - 1);
    }
  }
  return out;
}

function readTsvTerm(cell: string, column: TermColumn, row: number): void {
  if (cell.startsWith("<") && cell.endsWith(">")) {
    column.kinds[row] = IRI;
    column.values[row] = unescapeString(cell.slice(1, -1));
    return;
  }
  if (cell.startsWith("_:")) {
    column.kinds[row] = BNODE;
    column.values[row] = cell.slice(2);
    return;
  }
  column.kinds[row] = LITERAL;
  if (cell.startsWith('"')) {
    const end = closingQuote(cell);
    column.values[row] = unescapeString(cell.slice(1, end));
    const rest = cell.slice(end + 1);
    if (rest.startsWith("@")) column.langs[row] = rest.slice(1);
    else if (rest.startsWith("^^<") && rest.endsWith(">")) {
      column.datatypes[row] = rest.slice(3, -1);
    }
    return;
  }
  column.values[row] = cell;
  column.datatypes[row] = bareLiteralDatatype(cell);
}

/** The datatype Turtle gives a bare number or boolean. */
function bareLiteralDatatype(cell: string): string | undefined {
  if (/^[+-]?\d+$/.test(cell)) return `${XSD}integer`;
  if (/^[+-]?\d*\.\d+$/.test(cell)) return `${XSD}decimal`;
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(cell)) return `${XSD}double`;
  if (cell === "true" || cell === "false") return `${XSD}boolean`;
  return undefined;
}

function closingQuote(cell: string): number {
  for (let i = 1; i < cell.length; i++) {
    if (cell[i] === "\\") i++;
    else if (cell[i] === '"') return i;
  }
  throw malformedResults("TSV", `an unterminated literal: ${cell.slice(0, 40)}`);
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
