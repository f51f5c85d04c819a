/**
 * JSON-LD to triples with jsonld.js (the JSON-LD 1.1 reference processor):
 * every feature of the format is read, remote contexts included. Contexts
 * are loaded by a document loader that answers well-known ones offline
 * (`_jsonld_contexts.ts`) and fetches the others through lib/http, so they
 * are retried, cached and recorded like any other request.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { reportUnknownShape } from "../http/unknown_shape.ts";
import { offlineContext } from "./_jsonld_contexts.ts";
import { RDF, type Triple, XSD } from "./_rdf_vocabulary.ts";

/** Options of {@linkcode jsonLdToTriples}. */
export interface JsonLdOptions {
  /** The document's own URL, for relative `@id` values. */
  base?: string;
  /** Fetches remote contexts; without it only the offline ones are known. */
  http?: HttpClient;
  /**
   * Refuse what JSON-LD drops (a property that maps to no IRI, an invalid
   * language tag): a `ProtocolError` with code `unknownShape` instead of a
   * warning through `http`.
   */
  strict?: boolean;
}

/** The RDF/JS shape of jsonld.js's quads (it ships no types). */
interface Term {
  termType: "NamedNode" | "BlankNode" | "Literal" | "DefaultGraph";
  value: string;
  language?: string;
  datatype?: { value: string };
}

interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

/** What jsonld.js reports about a value it drops. */
interface JsonLdEvent {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

interface JsonLdProcessor {
  toRDF(
    input: unknown,
    options: {
      base?: string;
      documentLoader: (url: string) => Promise<RemoteDocument>;
      eventHandler: (handler: { event: JsonLdEvent }) => void;
    },
  ): Promise<Quad[]>;
}

/** jsonld.js, loaded on first use: importing tidepool should not pay for it. */
let processor: Promise<JsonLdProcessor> | undefined;

function jsonld(): Promise<JsonLdProcessor> {
  return processor ??= import("jsonld").then((module) =>
    (module.default ?? module) as unknown as JsonLdProcessor
  ).catch((error) => {
    processor = undefined;
    throw error;
  });
}

/** Loads contexts: offline ones first, then over lib/http (http and https only). */
function documentLoader(http: HttpClient | undefined) {
  return async (url: string): Promise<RemoteDocument> => {
    const offline = offlineContext(url);
    if (offline) return { contextUrl: null, documentUrl: url, document: offline };
    if (!/^https?:\/\//i.test(url)) {
      throw new ProtocolError(`Cannot load the JSON-LD context ${url}: not an http(s) URL`);
    }
    if (!http) {
      throw new ProtocolError(`Cannot read JSON-LD with the remote context ${url}`, {
        hint: "Read the document through a tidepool client, which fetches remote contexts",
      });
    }
    const response = await http.request({
      path: url,
      headers: { accept: "application/ld+json, application/json;q=0.9" },
    });
    return { contextUrl: null, documentUrl: response.url || url, document: response.json() };
  };
}

/** The first tidepool error in a jsonld.js error's causes (a failed context request). */
function tidepoolCause(error: unknown): TidepoolError | undefined {
  for (let cause = error, depth = 0; cause && depth < 8; depth++) {
    if (cause instanceof TidepoolError) return cause;
    const record = cause as { details?: { cause?: unknown }; cause?: unknown };
    cause = record.details?.cause ?? record.cause;
  }
  return undefined;
}

/**
 * Reads a JSON-LD document into triples (graph names are dropped).
 *
 * @param document The parsed JSON-LD.
 * @param options The base URL, the client for remote contexts, strictness.
 * @returns The triples.
 * @throws {ProtocolError} When the document is not valid JSON-LD or a context cannot be loaded.
 */
export async function jsonLdToTriples(
  document: unknown,
  options: JsonLdOptions = {},
): Promise<Triple[]> {
  const processor = await jsonld();
  const reporter = options.http ?? { warn() {} };
  const dropped: JsonLdEvent[] = [];
  let quads: Quad[];
  try {
    quads = await processor.toRDF(document, {
      base: options.base,
      documentLoader: documentLoader(options.http),
      eventHandler: ({ event }) => {
        if (options.strict) {
          reportUnknownShape(reporter, {
            strict: true,
            message: `JSON-LD that would lose data: ${
              event.message.replace(/\.$/, "")
            } (${event.code})`,
            details: JSON.stringify(event.details ?? {}),
          });
        }
        dropped.push(event);
      },
    });
  } catch (error) {
    const cause = tidepoolCause(error);
    if (cause) throw cause;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(`Cannot read the JSON-LD document: ${message.replace(/\.$/, "")}`, {
      code: (error as { details?: { code?: string } }).details?.code,
      details: JSON.stringify(document).slice(0, 300),
      hint: "The document is not valid JSON-LD 1.1; report it to whoever publishes it",
      cause: error,
    });
  }
  if (dropped.length > 0) {
    const codes = [...new Set(dropped.map((event) => event.code))].join(", ");
    reporter.warn(
      `JSON-LD: ${dropped.length} values were dropped as JSON-LD 1.1 says (${codes}); pass strict: true to make this an error`,
    );
  }
  return quads.map(({ subject, predicate, object }) => ({
    subject: termText(subject),
    predicate: predicate.value,
    object: termText(object),
    objectType: object.termType === "Literal"
      ? "literal"
      : object.termType === "BlankNode"
      ? "blank"
      : "iri",
    datatype: object.termType !== "Literal"
      ? null
      : object.language
      ? `${RDF}langString`
      : object.datatype?.value ?? `${XSD}string`,
    lang: object.termType === "Literal" && object.language ? object.language : null,
  }));
}

function termText(term: Term): string {
  return term.termType === "BlankNode" ? `_:${term.value.replace(/^_:/, "")}` : term.value;
}
