/**
 * A small JSON-LD to triples reader, written because `n3` does not read
 * JSON-LD and no JSON-LD library is in the lockfile.
 *
 * It follows the JSON-LD 1.1 expansion rules for what archive exports use:
 * - `@context` as an object or an array of objects (a remote context, given
 *   as a URL string, is refused, since fetching it would reach the network),
 *   with `@vocab`, `@base`, `@language`, prefixes (`"schema": "http://schema.org/"`)
 *   and terms (`"name": "schema:name"` or `{"@id", "@type", "@language", "@container"}`),
 *   including type coercion `"@type": "@id"` / `"@vocab"` and typed terms;
 *   nested contexts on nested nodes;
 * - nodes with `@id` (IRI, compact IRI or `_:blank`), `@type`, and properties
 *   whose values are strings, numbers, booleans, value objects
 *   (`@value` with `@language` or `@type`), node references, nested nodes
 *   (blank when they have no `@id`), arrays, `@list` and `@set`;
 * - top-level arrays and `@graph`.
 *
 * Not read: `@reverse`, `@included`, `@nest`, `@index` maps, `@json`
 * literals, scoped contexts and `@protected`. Properties that do not expand
 * to an absolute IRI are dropped, as the JSON-LD algorithm drops them.
 *
 * @module
 */

import { ProtocolError } from "../http/errors.ts";
import { RDF, type Triple, XSD } from "./_triples.ts";

interface TermDefinition {
  id: string;
  type?: string;
  language?: string | null;
  container?: string;
}

interface ActiveContext {
  terms: Map<string, TermDefinition>;
  vocab?: string;
  base?: string;
  language?: string;
}

type Json = null | string | number | boolean | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** An object of the triple: an IRI, a blank node or a literal. */
type ObjectTerm = Pick<Triple, "object" | "objectType" | "datatype" | "lang">;

/** Options of {@linkcode jsonLdToTriples}. */
export interface JsonLdOptions {
  /** The document's own URL, for relative `@id` values. */
  base?: string;
}

/**
 * Reads a JSON-LD document into triples.
 *
 * @param document The parsed JSON-LD.
 * @param options The base URL.
 * @returns The triples, in document order.
 */
export function jsonLdToTriples(document: unknown, options: JsonLdOptions = {}): Triple[] {
  const reader = new Reader();
  const context: ActiveContext = { terms: new Map(), base: options.base };
  const top = Array.isArray(document) ? document : [document];
  for (const item of top as Json[]) {
    if (item && typeof item === "object" && !Array.isArray(item)) reader.node(item, context);
  }
  return reader.triples;
}

class Reader {
  triples: Triple[] = [];
  #blank = 0;

  node(node: JsonObject, outer: ActiveContext): string {
    const context = "@context" in node ? processContext(outer, node["@context"]) : outer;
    const keys = Object.keys(node).filter((key) => key !== "@context");
    if ("@graph" in node && keys.every((key) => key === "@graph" || key === "@id")) {
      for (const item of asArray(node["@graph"])) {
        if (isObject(item)) this.node(item, context);
      }
      return typeof node["@id"] === "string" ? expandIri(node["@id"], context, false) : "";
    }
    const subject = typeof node["@id"] === "string"
      ? expandIri(node["@id"], context, false)
      : this.#newBlank();
    for (const type of asArray(node["@type"] ?? null)) {
      if (typeof type !== "string") continue;
      this.#emit(subject, `${RDF}type`, iriTerm(expandIri(type, context, true)));
    }
    for (const key of keys) {
      if (key.startsWith("@")) continue;
      const predicate = expandIri(key, context, true);
      if (!isAbsolute(predicate)) continue;
      const definition = context.terms.get(key);
      const values = definition?.container === "@list"
        ? [{ "@list": node[key] } as JsonObject]
        : asArray(node[key]).flatMap((v) => isObject(v) && "@set" in v ? asArray(v["@set"]) : [v]);
      for (const value of values) {
        const object = this.#object(value, definition, context);
        if (object) this.#emit(subject, predicate, object);
      }
    }
    return subject;
  }

  #object(
    value: Json,
    definition: TermDefinition | undefined,
    context: ActiveContext,
  ): ObjectTerm | undefined {
    if (value === null) return undefined;
    if (Array.isArray(value)) return this.#list(value, definition, context);
    if (typeof value === "string") {
      if (definition?.type === "@id") return iriTerm(expandIri(value, context, false));
      if (definition?.type === "@vocab") return iriTerm(expandIri(value, context, true));
      if (definition?.type) return literal(value, expandIri(definition.type, context, true));
      const lang = definition && definition.language !== undefined
        ? definition.language
        : context.language;
      return lang ? langLiteral(value, lang) : literal(value, `${XSD}string`);
    }
    if (typeof value === "number" || typeof value === "boolean") {
      const datatype = definition?.type && !definition.type.startsWith("@")
        ? expandIri(definition.type, context, true)
        : undefined;
      return nativeLiteral(value, datatype);
    }
    if ("@value" in value) return this.#valueObject(value, context);
    if ("@list" in value) return this.#list(asArray(value["@list"]), definition, context);
    const id = this.node(value, context);
    return id.startsWith("_:") ? blankTerm(id) : iriTerm(id);
  }

  #valueObject(value: JsonObject, context: ActiveContext): ObjectTerm | undefined {
    const raw = value["@value"];
    if (raw === null) return undefined;
    const type = typeof value["@type"] === "string"
      ? expandIri(value["@type"], context, true)
      : undefined;
    if (typeof raw === "number" || typeof raw === "boolean") return nativeLiteral(raw, type);
    const text = String(raw);
    if (typeof value["@language"] === "string") return langLiteral(text, value["@language"]);
    return literal(text, type ?? `${XSD}string`);
  }

  /** A list as an rdf:first/rdf:rest chain; returns its head. */
  #list(
    items: Json[],
    definition: TermDefinition | undefined,
    context: ActiveContext,
  ): ObjectTerm {
    if (items.length === 0) return iriTerm(`${RDF}nil`);
    const head = this.#newBlank();
    let node = head;
    items.forEach((item, i) => {
      const object = this.#object(item, definition, context);
      if (object) this.#emit(node, `${RDF}first`, object);
      const next = i === items.length - 1 ? `${RDF}nil` : this.#newBlank();
      this.#emit(node, `${RDF}rest`, next.startsWith("_:") ? blankTerm(next) : iriTerm(next));
      node = next;
    });
    return blankTerm(head);
  }

  #emit(subject: string, predicate: string, object: ObjectTerm) {
    this.triples.push({ subject, predicate, ...object });
  }

  #newBlank(): string {
    return `_:b${this.#blank++}`;
  }
}

/** Applies a local context to an active context. */
function processContext(active: ActiveContext, local: Json): ActiveContext {
  let result: ActiveContext = { ...active, terms: new Map(active.terms) };
  for (const entry of asArray(local)) {
    if (entry === null) {
      result = { terms: new Map(), base: active.base };
      continue;
    }
    if (typeof entry === "string") {
      throw new ProtocolError(`Cannot read JSON-LD with a remote context: ${entry}`, {
        hint:
          "tidepool does not fetch remote contexts; ask for the document with an inline context",
      });
    }
    if (!isObject(entry)) continue;
    if (typeof entry["@vocab"] === "string") {
      result.vocab = expandIri(entry["@vocab"], result, true);
    }
    if (typeof entry["@base"] === "string") result.base = entry["@base"];
    if (typeof entry["@language"] === "string") result.language = entry["@language"];
    // Prefix and term definitions may refer to each other in any order; two passes settle them.
    for (let pass = 0; pass < 2; pass++) {
      for (const [key, definition] of Object.entries(entry)) {
        if (key.startsWith("@")) continue;
        if (definition === null) {
          result.terms.delete(key);
        } else if (typeof definition === "string") {
          result.terms.set(key, { id: expandIri(definition, result, true, key) });
        } else if (isObject(definition)) {
          const id = typeof definition["@id"] === "string"
            ? expandIri(definition["@id"], result, true, key)
            : expandIri(key, result, true, key);
          const type = typeof definition["@type"] === "string"
            ? (definition["@type"].startsWith("@")
              ? definition["@type"]
              : expandIri(definition["@type"], result, true))
            : undefined;
          result.terms.set(key, {
            id,
            type,
            language: "@language" in definition
              ? (definition["@language"] as string | null)
              : undefined,
            container: typeof definition["@container"] === "string"
              ? definition["@container"]
              : undefined,
          });
        }
      }
    }
  }
  return result;
}

/** Expands a term, a compact IRI, a blank node label or a relative IRI. */
function expandIri(value: string, context: ActiveContext, vocab: boolean, self?: string): string {
  if (value.startsWith("@")) return value;
  if (vocab && value !== self) {
    const term = context.terms.get(value);
    if (term) return term.id;
  }
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    const suffix = value.slice(colon + 1);
    if (prefix === "_") return value;
    if (suffix.startsWith("//")) return value;
    const definition = prefix !== self ? context.terms.get(prefix) : undefined;
    if (definition) return definition.id + suffix;
    return value;
  }
  if (vocab && context.vocab) return context.vocab + value;
  if (context.base) {
    try {
      return new URL(value, context.base).toString();
    } catch {
      return value;
    }
  }
  return value;
}

function isAbsolute(iri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(iri);
}

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function asArray(value: Json | undefined): Json[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function iriTerm(iri: string): ObjectTerm {
  if (iri.startsWith("_:")) return blankTerm(iri);
  return { object: iri, objectType: "iri", datatype: null, lang: null };
}

function blankTerm(label: string): ObjectTerm {
  return { object: label, objectType: "blank", datatype: null, lang: null };
}

function literal(value: string, datatype: string): ObjectTerm {
  return { object: value, objectType: "literal", datatype, lang: null };
}

function langLiteral(value: string, lang: string): ObjectTerm {
  return { object: value, objectType: "literal", datatype: `${RDF}langString`, lang };
}

/** JSON numbers and booleans as the JSON-LD algorithm writes them. */
function nativeLiteral(value: number | boolean, datatype?: string): ObjectTerm {
  if (typeof value === "boolean") return literal(String(value), datatype ?? `${XSD}boolean`);
  if (Number.isInteger(value) && datatype !== `${XSD}double`) {
    return literal(String(value), datatype ?? `${XSD}integer`);
  }
  const canonical = value.toExponential().replace(/e\+?/, "E").replace(/^(-?\d)E/, "$1.0E");
  return literal(canonical, datatype ?? `${XSD}double`);
}
