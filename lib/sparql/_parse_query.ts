/**
 * Parses a SPARQL query with sparqljs before anything is sent, so a syntax
 * error is reported locally with its line and column.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { SparqlSyntaxError } from "./sparql_syntax_error.ts";

/** The PREFIX lines offered when a well-known vocabulary is used undeclared. */
export const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  schema: "http://schema.org/",
  dcterms: "http://purl.org/dc/terms/",
  dc: "http://purl.org/dc/elements/1.1/",
  rico: "https://www.ica.org/standards/RiC/ontology#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  foaf: "http://xmlns.com/foaf/0.1/",
};

/**
 * Prefixes a server may declare for every query: Virtuoso 7 predeclares
 * these (its DB.DBA.SYS_XML_PERSISTENT_NS_DECL at Debian's install, among
 * others), so a query that uses them undeclared is declared from here
 * rather than refused.
 */
const PREDECLARED: Readonly<Record<string, string>> = {
  ...WELL_KNOWN_PREFIXES,
  fn: "http://www.w3.org/2005/xpath-functions/#",
  geo: "http://www.w3.org/2003/01/geo/wgs84_pos#",
  ldp: "http://www.w3.org/ns/ldp#",
  sd: "http://www.w3.org/ns/sparql-service-description#",
  sioc: "http://rdfs.org/sioc/ns#",
  vcard: "http://www.w3.org/2001/vcard-rdf/3.0#",
  void: "http://rdfs.org/ns/void#",
  xml: "http://www.w3.org/XML/1998/namespace",
  dbpedia: "http://dbpedia.org/resource/",
  dbpprop: "http://dbpedia.org/property/",
};

/** How an undeclared prefix is met: refused (paging needs the whole parse) or let through. */
export interface ParseOptions {
  /**
   * Called for a prefix neither declared nor well known; the query is then
   * sent unchecked (the server may know the prefix). Without it, refused.
   */
  warn?: (message: string) => void;
}

/**
 * The error of a prefix used without a PREFIX line, at its first use (the
 * parser itself gives no position), offering the line for a known vocabulary.
 */
function unknownPrefix(query: string, prefix: string): SparqlSyntaxError {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const use = new RegExp(`(^|[^\\w:<"'-])${escaped}:`, "gm");
  let offset = 0;
  for (const match of query.matchAll(use)) {
    const at = (match.index ?? 0) + match[1].length;
    const lineStart = query.lastIndexOf("\n", at) + 1;
    // Skip the declaring side of a PREFIX line (for another prefix's IRI it cannot occur).
    if (/^\s*PREFIX\s*$/i.test(query.slice(lineStart, at))) continue;
    offset = at;
    break;
  }
  const before = query.slice(0, offset).split("\n");
  const known = WELL_KNOWN_PREFIXES[prefix];
  return new SparqlSyntaxError(`the prefix ${prefix}: is not declared`, {
    line: before.length,
    column: before.at(-1)!.length + 1,
    query,
    hint: known
      ? `Add this line at the top of the query: PREFIX ${prefix}: <${known}>`
      : `Add a line PREFIX ${prefix}: <...> at the top of the query with the vocabulary's IRI`,
  });
}

/** The kind of a query, from its parse. */
export type QueryType = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE";

interface JisonError {
  message: string;
  hash?: {
    line?: number;
    text?: string;
    token?: string;
    loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
  };
}

/** The parsed form sparqljs gives (it ships no types). */
export interface ParsedQuery {
  type: string;
  queryType?: QueryType;
  /** PREFIX lines declared here for well-known prefixes the query uses undeclared; sent before it. */
  declared?: string;
  /** Set when the query could not be checked (an unknown prefix): only its type is known. */
  unchecked?: boolean;
  [key: string]: unknown;
}

/** Parses a query; throws {@linkcode SparqlSyntaxError} with its position. */
export async function parseQuery(
  query: string,
  options: ParseOptions = {},
): Promise<ParsedQuery> {
  if (typeof query !== "string") {
    throw new TidepoolError(`Invalid SPARQL query: expected text, got ${typeof query}`, {
      hint: 'Give the query as a string, such as "SELECT ?s WHERE { ?s ?p ?o } LIMIT 10"',
    });
  }
  if (query.trim() === "") {
    throw new TidepoolError("Cannot send an empty SPARQL query", {
      hint:
        'Write a SELECT, ASK, CONSTRUCT or DESCRIBE query, such as "SELECT ?s WHERE { ?s ?p ?o } LIMIT 10"',
    });
  }
  // sparqljs is loaded on first use: importing tidepool should not pay for it.
  const { default: sparqljs } = await import("sparqljs");
  let parsed: ParsedQuery;
  const prefixes: Record<string, string> = {};
  for (;;) {
    try {
      parsed = new sparqljs.Parser({ skipValidation: false, prefixes }).parse(query) as ParsedQuery;
      break;
    } catch (error) {
      const jison = error as JisonError;
      const message = String(jison.message ?? error);
      const prefix = /^Unknown prefix: (\S*)/.exec(message)?.[1];
      if (prefix !== undefined && PREDECLARED[prefix] && !(prefix in prefixes)) {
        // A server predeclares it (Virtuoso: xsd, rdf, foaf...): declared here, never refused.
        prefixes[prefix] = PREDECLARED[prefix];
        continue;
      }
      if (prefix !== undefined && options.warn) {
        options.warn(
          `The query uses the prefix ${prefix}: without declaring it; it is sent unchecked, for the server may know it (else add PREFIX ${prefix}: <...>)`,
        );
        return { type: "query", queryType: queryTypeOf(query), unchecked: true };
      }
      if (prefix !== undefined) throw unknownPrefix(query, prefix);
      const { line, column } = errorPosition(query, jison);
      // The parser's own message repeats the line and appends every token it
      // expected; the excerpt says the same in the place it happened.
      const found = jison.hash?.token === "EOF"
        ? "the query ends early"
        : jison.hash?.text
        ? `unexpected '${jison.hash.text}'`
        : message.split("\n")[0];
      throw new SparqlSyntaxError(found, { line, column, query });
    }
  }
  const names = Object.keys(prefixes);
  if (names.length) {
    parsed.declared = names.map((name) => `PREFIX ${name}: <${prefixes[name]}>\n`).join("");
  }
  if (parsed.type === "update") {
    throw new TidepoolError("Cannot send a SPARQL update: the endpoint is read-only", {
      hint: "Use SELECT, ASK, CONSTRUCT or DESCRIBE",
    });
  }
  return parsed;
}

/**
 * The 1-based line and column of the offending token. The parser's
 * location is of the last token it accepted, so the position is taken as
 * the first occurrence of the offending text after that token's end.
 */
/** The form of a query sent unchecked: its first query keyword after the prologue. */
function queryTypeOf(query: string): QueryType {
  const body = query.replace(/#[^\n]*/g, "").replace(/<[^>]*>/g, "");
  const found = /\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b/i.exec(body)?.[1].toUpperCase();
  return (found ?? "SELECT") as QueryType;
}

function errorPosition(query: string, error: JisonError): { line: number; column: number } {
  const loc = error.hash?.loc;
  if (!loc) {
    const line = (error.hash?.line ?? 0) + 1;
    return { line, column: 1 };
  }
  const lines = query.split("\n");
  let offset = 0;
  for (let i = 0; i < loc.last_line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += loc.last_column;
  const text = error.hash?.text;
  if (text) {
    const at = query.indexOf(text, offset);
    if (at >= 0) offset = at;
  }
  const before = query.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
