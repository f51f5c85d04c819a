/**
 * The triples table (linked data, CONSTRUCT and DESCRIBE answers) and the
 * readers that fill it: Turtle, N-Triples and N-Quads with the `n3` parser,
 * RDF/XML with oxigraph, JSON-LD with jsonld.js (`_jsonld.ts`).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { ProtocolError } from "../errors/errors.ts";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { type JsonLdOptions, jsonLdToTriples } from "./_jsonld.ts";
import type { TripleRow } from "./rows.ts";
import { type Triple, XSD } from "./_rdf_vocabulary.ts";
import { VIRTUOSO_BLANK } from "./_result_columns.ts";

export { RDF, type Triple, XSD } from "./_rdf_vocabulary.ts";

/** Columns of a triples table. */
export const TRIPLE_SCHEMA: TableSchema<Triple, TripleRow> = defineSchema([
  { name: "subject", type: "string", description: "subject IRI or _:blank" },
  { name: "predicate", type: "string", description: "predicate IRI" },
  { name: "object", type: "string", description: "object IRI, _:blank, or literal text" },
  { name: "objectType", type: "string", description: "iri, literal or blank" },
  {
    name: "datatype",
    type: "string",
    description: "literal datatype IRI, null for IRIs and blanks",
  },
  { name: "lang", type: "string", description: "literal language tag, or null" },
]);

/** Triples to a table with the documented columns. */
export function triplesTable(triples: readonly Triple[]): ColumnTable {
  return buildTable(TRIPLE_SCHEMA, triples);
}

/** Parses Turtle, TriG, N-Triples or N-Quads text (graph names are dropped). */
export async function parseTurtle(
  text: string,
  baseIRI?: string,
  format?: string,
): Promise<Triple[]> {
  // n3 is loaded on first use: importing tidepool should not pay for it.
  const { Parser } = await import("n3");
  return parsedRows("Turtle", () => new Parser({ baseIRI, format }).parse(text) as RdfJsQuad[]);
}

/** The rows of what `parse` gives, or the error of a malformed `syntax` answer. */
function parsedRows(syntax: string, parse: () => RdfJsQuad[]): Triple[] {
  let quads: RdfJsQuad[];
  try {
    quads = parse();
  } catch (error) {
    throw new ProtocolError(`Cannot read the ${syntax} answer`, {
      details: error instanceof Error ? error.message : String(error),
      hint: "The service sent malformed RDF; report it to the operator",
      cause: error,
    });
  }
  return quadRows(quads);
}

/** The RDF/JS term shape n3 produces (n3 ships no types). */
interface RdfJsTerm {
  termType: string;
  value: string;
  language?: string;
  datatype?: { value: string };
}

interface RdfJsQuad {
  subject: RdfJsTerm;
  predicate: RdfJsTerm;
  object: RdfJsTerm;
}

function termText(term: RdfJsTerm): string {
  if (term.termType === "BlankNode") return `_:${term.value}`;
  // Virtuoso's blank nodes as IRIs, `nodeID://b10001`, are blank nodes.
  if (blankIri(term)) return `_:${term.value.slice(VIRTUOSO_BLANK.length)}`;
  return term.value;
}

function blankIri(term: RdfJsTerm): boolean {
  return term.termType === "NamedNode" && term.value.startsWith(VIRTUOSO_BLANK);
}

/** The rows of parsed quads (from n3 or oxigraph, both RDF/JS terms). */
function quadRows(quads: readonly RdfJsQuad[]): Triple[] {
  return quads.map((quad) => {
    const object = quad.object;
    return {
      subject: termText(quad.subject),
      predicate: quad.predicate.value,
      object: termText(object),
      objectType: object.termType === "Literal"
        ? "literal"
        : object.termType === "BlankNode" || blankIri(object)
        ? "blank"
        : "iri",
      datatype: object.termType === "Literal" ? object.datatype?.value ?? `${XSD}string` : null,
      lang: object.termType === "Literal" && object.language ? object.language : null,
    };
  });
}

/**
 * Parses RDF/XML (what SPARQLWrapper asks CONSTRUCT and DESCRIBE for, and
 * some endpoints send first) with oxigraph, which n3 cannot do.
 */
async function parseRdfXml(text: string, baseIRI?: string): Promise<Triple[]> {
  // oxigraph is loaded on first use, like n3.
  const { default: oxigraph } = await import("oxigraph");
  return parsedRows("RDF/XML", () =>
    oxigraph.parse(text, {
      format: "application/rdf+xml",
      base_iri: baseIRI,
    }) as unknown as RdfJsQuad[]);
}

/**
 * Reads an RDF body by its content type: JSON-LD (remote contexts loaded
 * with `options.http`), or a Turtle-family syntax.
 */
export async function parseRdf(
  text: string,
  contentType: string,
  baseIRI?: string,
  options: Pick<JsonLdOptions, "http" | "strict"> = {},
): Promise<Triple[]> {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "application/ld+json" || type === "application/json") {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new ProtocolError("Cannot read the JSON-LD answer: it is not JSON", {
        details: text,
        cause: error,
      });
    }
    return await jsonLdToTriples(doc, { ...options, base: baseIRI });
  }
  if (type === "application/rdf+xml") return await parseRdfXml(text, baseIRI);
  const format = type === "application/n-triples"
    ? "N-Triples"
    : type === "application/n-quads"
    ? "N-Quads"
    : type === "application/trig"
    ? "TriG"
    : undefined;
  return await parseTurtle(text, baseIRI, format);
}
