/**
 * The `sparql` template tag: values are written as escaped RDF terms, so
 * user input can never change the structure of a query.
 *
 * @module
 */

import { iri, literal, type SparqlTerm, type SparqlValue, toTerm } from "./_rdf_term.ts";

/** The tag function with its term helpers. */
export interface SparqlTag {
  (strings: TemplateStringsArray, ...values: SparqlValue[]): string;
  /** An IRI term; refuses characters that could end it. */
  iri(value: string | URL): SparqlTerm;
  /** A literal with an optional language tag or datatype. */
  literal(value: string, options?: { lang?: string; datatype?: string | URL }): SparqlTerm;
}

function tag(strings: TemplateStringsArray, ...values: SparqlValue[]): string {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += toTerm(values[i]) + strings[i + 1];
  return text;
}

/**
 * Builds a SPARQL query from a template. Each `${value}` becomes one term:
 * strings become quoted literals (quotes, backslashes and line breaks
 * escaped), numbers `xsd:integer` or `xsd:double` literals, bigints
 * `xsd:integer`, booleans `true`/`false`, Dates `xsd:dateTime`, URL objects
 * and `sparql.iri(...)` IRIs, `sparql.literal(text, { lang | datatype })`
 * tagged literals, and arrays their terms separated by spaces (for
 * `VALUES`).
 *
 * @param strings The query text around the values.
 * @param values The values.
 * @returns The query text.
 *
 * @example A title from user input, escaped
 * ```ts
 * const title = 'x" } ?s ?p ?o { "';
 * const query = sparql`SELECT ?s WHERE { ?s <http://schema.org/name> ${title} }`;
 * console.log(query); // the quotes inside title are escaped
 * ```
 */
export const sparql: SparqlTag = Object.assign(tag, { iri, literal });
