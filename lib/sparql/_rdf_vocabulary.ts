/**
 * What every RDF reader shares: one triple with its terms written as
 * strings, and the namespaces datatypes are named in. The Turtle and the
 * JSON-LD readers both fill it, so it stands below both.
 *
 * @module
 */

/** One triple, with terms written as strings. */
export interface Triple {
  /** Subject IRI, or `_:label` for a blank node. */
  subject: string;
  /** Predicate IRI. */
  predicate: string;
  /** Object IRI, `_:label`, or the literal's lexical form. */
  object: string;
  /** What the object is. */
  objectType: "iri" | "literal" | "blank";
  /** Datatype IRI of a literal (`xsd:string` for plain, `rdf:langString` with a language). */
  datatype: string | null;
  /** Language tag of a literal, or null. */
  lang: string | null;
}

/** The XSD namespace. */
export const XSD = "http://www.w3.org/2001/XMLSchema#";
/** The RDF namespace. */
export const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
