/**
 * Values written as SPARQL terms, escaped so that no value can end its term
 * early: strings as quoted literals, numbers, bigints, booleans, dates, IRIs.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

const XSD = "http://www.w3.org/2001/XMLSchema#";

/**
 * A value already written as a SPARQL term by `sparql.iri` or
 * `sparql.literal`. It has no public constructor: only terms those helpers
 * made are accepted, so raw text can never pass the tag's escaping.
 */
export interface SparqlTerm {
  /** The term text, safe to place in a query. */
  readonly text: string;
  /** The term text. */
  toString(): string;
}

/** The terms the helpers below made; nothing else counts as a term. */
const MINTED = new WeakSet<object>();

/** Wraps escaped text as a term; only this module's helpers call it. */
function mint(text: string): SparqlTerm {
  const term = Object.freeze({ text, toString: () => text });
  MINTED.add(term);
  return term;
}

/** Whether a value is a term made by {@linkcode iri} or {@linkcode literal}. */
function isMinted(value: unknown): value is SparqlTerm {
  return typeof value === "object" && value !== null && MINTED.has(value);
}

/** A value the template tag accepts. */
export type SparqlValue =
  | string
  | number
  | bigint
  | boolean
  | Date
  | URL
  | SparqlTerm
  | readonly SparqlValue[];

/** Characters IRIREF does not allow (SPARQL 1.1 grammar, production 139). */
// deno-lint-ignore no-control-regex -- control characters are exactly what must be refused
const BAD_IRI = /[\u0000-\u0020<>"{}|^`\\]/;

/** An IRI term `<...>`; refuses characters that could end it. */
export function iri(value: string | URL): SparqlTerm {
  const text = String(value);
  if (BAD_IRI.test(text) || text === "") {
    throw new TidepoolError(`Cannot use this value as an IRI: ${JSON.stringify(text)}`, {
      hint: "An IRI cannot hold spaces, quotes, angle brackets, braces or backslashes",
    });
  }
  return mint(`<${text}>`);
}

/** A string literal, optionally with a language tag or a datatype IRI. */
export function literal(
  value: string,
  options: { lang?: string; datatype?: string | URL } = {},
): SparqlTerm {
  let text = `"${escapeString(value)}"`;
  if (options.lang !== undefined) {
    if (!/^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/.test(options.lang)) {
      throw new TidepoolError(`Invalid language tag: ${JSON.stringify(options.lang)}`, {
        hint: 'Give a BCP 47 tag such as "en" or "ja-Latn"',
      });
    }
    text += `@${options.lang}`;
  } else if (options.datatype !== undefined) {
    text += `^^${iri(options.datatype).text}`;
  }
  return mint(text);
}

/** Escapes a string for a double-quoted SPARQL literal. */
export function escapeString(value: string): string {
  // deno-lint-ignore no-control-regex -- control characters must be escaped
  return value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}

/** Writes any accepted value as a term. */
export function toTerm(value: SparqlValue): string {
  if (isMinted(value)) return value.text;
  if (typeof value === "string") return literal(value).text;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return `"${value}"^^<${XSD}integer>`;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new TidepoolError(`Cannot use ${value} in a SPARQL query`, {
        hint: "Give a finite number",
      });
    }
    return Number.isSafeInteger(value)
      ? `"${value}"^^<${XSD}integer>`
      : `"${value}"^^<${XSD}double>`;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new TidepoolError("Cannot use an invalid Date in a SPARQL query");
    }
    return `"${value.toISOString()}"^^<${XSD}dateTime>`;
  }
  if (value instanceof URL) return iri(value).text;
  if (Array.isArray(value)) return value.map((item) => toTerm(item)).join(" ");
  const kind = typeof value === "object" && value !== null && "text" in value
    ? "term not made by sparql.iri() or sparql.literal()"
    : typeof value;
  throw new TidepoolError(`Cannot use a ${kind} in a SPARQL query`, {
    hint: "Give a string, number, bigint, boolean, Date, URL, or sparql.iri()/sparql.literal()",
  });
}
