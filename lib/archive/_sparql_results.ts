/**
 * Readers of the SPARQL 1.1 result formats (JSON, XML, CSV, TSV) into one
 * shape: the variables and, per row, one term or undefined (unbound) per
 * variable; or the boolean of an ASK.
 *
 * @module
 */

import type { XMLParser } from "fast-xml-parser";
import { ProtocolError } from "../http/errors.ts";
import { XSD } from "./_triples.ts";

/** One RDF term of a result. */
export interface ResultTerm {
  /** What the term is. */
  type: "uri" | "literal" | "bnode" | "triple";
  /** IRI, lexical form, or blank node label (without `_:`). */
  value: string;
  /** Datatype IRI of a typed literal. */
  datatype?: string;
  /** Language tag of a literal. */
  lang?: string;
}

/** A SELECT answer: variables and rows aligned with them. */
export interface Bindings {
  /** The variables, from the head, in order. */
  vars: string[];
  /** One array per solution; undefined where a variable is unbound. */
  rows: (ResultTerm | undefined)[][];
}

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
): Promise<Bindings | boolean> {
  switch (format) {
    case "json":
      return parseJsonResults(text);
    case "xml":
      return await parseXmlResults(text);
    case "csv":
      return parseCsvResults(text);
    case "tsv":
      return parseTsvResults(text);
  }
}

function malformed(format: string, detail: string, cause?: unknown): ProtocolError {
  return new ProtocolError(`Cannot read the SPARQL ${format} results: ${detail}`, {
    hint: "The endpoint sent a malformed result document; try another format with { format }",
    cause,
  });
}

// ---- JSON (application/sparql-results+json) --------------------------------

interface JsonTerm {
  type: string;
  value: string;
  datatype?: string;
  "xml:lang"?: string;
}

/** Reads SPARQL 1.1 Query Results JSON. */
export function parseJsonResults(text: string): Bindings | boolean {
  let doc: { head?: { vars?: string[] }; boolean?: boolean; results?: { bindings?: unknown[] } };
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw malformed("JSON", "the body is not JSON", error);
  }
  if (typeof doc.boolean === "boolean") return doc.boolean;
  const vars = doc.head?.vars;
  const bindings = doc.results?.bindings;
  if (!Array.isArray(vars) || !Array.isArray(bindings)) {
    throw malformed("JSON", "no head.vars or results.bindings");
  }
  const rows = new Array(bindings.length);
  const width = vars.length;
  for (let r = 0; r < bindings.length; r++) {
    const binding = bindings[r] as Record<string, JsonTerm | undefined>;
    const row = new Array(width);
    for (let v = 0; v < width; v++) {
      const term = binding[vars[v]];
      row[v] = term === undefined ? undefined : jsonTerm(term);
    }
    rows[r] = row;
  }
  return { vars, rows };
}

function jsonTerm(term: JsonTerm): ResultTerm {
  const type = term.type === "typed-literal" ? "literal" : term.type;
  if (type === "literal") {
    const lang = term["xml:lang"];
    return lang
      ? { type: "literal", value: term.value, lang }
      : { type: "literal", value: term.value, datatype: term.datatype };
  }
  if (type === "uri" || type === "bnode") return { type, value: term.value };
  if (type === "triple") return { type: "triple", value: JSON.stringify(term.value) };
  throw malformed("JSON", `unknown term type ${JSON.stringify(term.type)}`);
}

// ---- XML (application/sparql-results+xml) ----------------------------------

/** fast-xml-parser, loaded on first use: importing tidepool should not pay for it. */
let xmlParser: Promise<XMLParser> | undefined;

const XML_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name: string) => name === "variable" || name === "result" || name === "binding",
};

type XmlNode = Record<string, unknown>;

/**
 * Reads SPARQL Query Results XML. A DOCTYPE is refused: result documents
 * never need one, and refusing it rules out entity expansion attacks.
 */
export async function parseXmlResults(text: string): Promise<Bindings | boolean> {
  if (/<!DOCTYPE/i.test(text)) throw malformed("XML", "the document has a DOCTYPE");
  const parser =
    await (xmlParser ??= import("fast-xml-parser").then(({ XMLParser }) =>
      new XMLParser(XML_OPTIONS)
    ).catch((error) => {
      xmlParser = undefined; // a failed load is tried again next time, not remembered
      throw error;
    }));
  let doc: XmlNode;
  try {
    doc = parser.parse(text) as XmlNode;
  } catch (error) {
    throw malformed("XML", "the body is not XML", error);
  }
  const sparql = doc.sparql as XmlNode | undefined;
  if (!sparql) throw malformed("XML", "no sparql element");
  if (sparql.boolean !== undefined) {
    const value = textOf(sparql.boolean).trim();
    return value === "true" || value === "1";
  }
  const head = (sparql.head ?? {}) as XmlNode;
  const vars = ((head.variable ?? []) as XmlNode[]).map((v) => String(v["@_name"]));
  const index = new Map(vars.map((name, i) => [name, i]));
  const results = ((sparql.results as XmlNode | undefined)?.result ?? []) as XmlNode[];
  const rows = results.map((result) => {
    const row: (ResultTerm | undefined)[] = new Array(vars.length).fill(undefined);
    for (const binding of (result.binding ?? []) as XmlNode[]) {
      const at = index.get(String(binding["@_name"]));
      if (at !== undefined) row[at] = xmlTerm(binding);
    }
    return row;
  });
  return { vars, rows };
}

function xmlTerm(binding: XmlNode): ResultTerm {
  if (binding.uri !== undefined) return { type: "uri", value: textOf(binding.uri).trim() };
  if (binding.bnode !== undefined) return { type: "bnode", value: textOf(binding.bnode).trim() };
  if (binding.literal !== undefined) {
    const literal = binding.literal;
    const attributes = (typeof literal === "object" && literal !== null ? literal : {}) as XmlNode;
    const lang = attributes["@_lang"] ?? attributes["@_xml:lang"];
    const datatype = attributes["@_datatype"];
    return lang !== undefined ? { type: "literal", value: textOf(literal), lang: String(lang) } : {
      type: "literal",
      value: textOf(literal),
      datatype: datatype === undefined ? undefined : String(datatype),
    };
  }
  if (binding.triple !== undefined) {
    return { type: "triple", value: JSON.stringify(binding.triple) };
  }
  throw malformed("XML", "a binding without uri, bnode or literal");
}

function textOf(node: unknown): string {
  if (node === null || node === undefined) return "";
  if (typeof node === "object") return String((node as XmlNode)["#text"] ?? "");
  return String(node);
}

// ---- CSV (text/csv) ---------------------------------------------------------

/**
 * Reads SPARQL 1.1 CSV results. The format keeps no term types: every
 * value is a plain literal string, and an empty cell is unbound (CSV cannot
 * tell an empty string from an unbound value).
 */
export function parseCsvResults(text: string): Bindings {
  const records = csvRecords(text);
  if (records.length === 0) throw malformed("CSV", "no header line");
  const vars = records[0];
  const rows = records.slice(1).map((cells) =>
    vars.map((_, i) => {
      const cell = cells[i];
      return cell === undefined || cell === ""
        ? undefined
        : { type: "literal" as const, value: cell };
    })
  );
  return { vars, rows };
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
export function parseTsvResults(text: string): Bindings {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) throw malformed("TSV", "no header line");
  const vars = lines[0].split("\t").map((name) => name.replace(/^[?$]/, ""));
  const rows = lines.slice(1).map((line) => {
    const cells = line.split("\t");
    return vars.map((_, i) => {
      const cell = cells[i];
      return cell === undefined || cell === "" ? undefined : tsvTerm(cell);
    });
  });
  return { vars, rows };
}

function tsvTerm(cell: string): ResultTerm {
  if (cell.startsWith("<") && cell.endsWith(">")) {
    return { type: "uri", value: unescapeString(cell.slice(1, -1)) };
  }
  if (cell.startsWith("_:")) return { type: "bnode", value: cell.slice(2) };
  if (cell.startsWith('"')) {
    const end = closingQuote(cell);
    const value = unescapeString(cell.slice(1, end));
    const rest = cell.slice(end + 1);
    if (rest.startsWith("@")) return { type: "literal", value, lang: rest.slice(1) };
    if (rest.startsWith("^^<") && rest.endsWith(">")) {
      return { type: "literal", value, datatype: rest.slice(3, -1) };
    }
    return { type: "literal", value };
  }
  if (/^[+-]?\d+$/.test(cell)) return { type: "literal", value: cell, datatype: `${XSD}integer` };
  if (/^[+-]?\d*\.\d+$/.test(cell)) {
    return { type: "literal", value: cell, datatype: `${XSD}decimal` };
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/.test(cell)) {
    return { type: "literal", value: cell, datatype: `${XSD}double` };
  }
  if (cell === "true" || cell === "false") {
    return { type: "literal", value: cell, datatype: `${XSD}boolean` };
  }
  return { type: "literal", value: cell };
}

function closingQuote(cell: string): number {
  for (let i = 1; i < cell.length; i++) {
    if (cell[i] === "\\") i++;
    else if (cell[i] === '"') return i;
  }
  throw malformed("TSV", `an unterminated literal: ${cell.slice(0, 40)}`);
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
