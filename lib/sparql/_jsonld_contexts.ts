/**
 * Well-known JSON-LD contexts kept offline, so the usual `"@context":
 * "https://schema.org"` reads without a request. Any other remote context is
 * fetched through lib/http (retries, cache, record/replay).
 *
 * @module
 */

/**
 * schema.org's context, reduced to what changes the triples of archive
 * exports: the vocabulary (schema.org's context maps terms to `http://`
 * IRIs, whatever scheme the document names it with), the usual prefixes,
 * the `id`/`type` aliases, and the properties whose values are links
 * (coerced to IRIs, as the full context does for properties with a URL range).
 */
const SCHEMA_ORG: Record<string, unknown> = {
  "@vocab": "http://schema.org/",
  schema: "http://schema.org/",
  dc: "http://purl.org/dc/elements/1.1/",
  dcterms: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  owl: "http://www.w3.org/2002/07/owl#",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  id: "@id",
  type: "@type",
  ...Object.fromEntries(
    [
      "url",
      "sameAs",
      "image",
      "logo",
      "license",
      "contentUrl",
      "embedUrl",
      "thumbnailUrl",
      "mainEntityOfPage",
      "additionalType",
      "codeRepository",
      "downloadUrl",
      "discussionUrl",
      "archivedAt",
    ].map((term) => [term, { "@id": `schema:${term}`, "@type": "@id" }]),
  ),
};

/** The offline contexts by URL (without a trailing slash, scheme as written). */
const OFFLINE: Record<string, Record<string, unknown>> = {
  "https://schema.org": SCHEMA_ORG,
  "http://schema.org": SCHEMA_ORG,
  "https://schema.org/docs/jsonldcontext.jsonld": SCHEMA_ORG,
  "https://schema.org/docs/jsonldcontext.json": SCHEMA_ORG,
};

/** The offline context document of a URL, or undefined when it must be fetched. */
export function offlineContext(url: string): { "@context": Record<string, unknown> } | undefined {
  const context = OFFLINE[url.replace(/\/$/, "")];
  return context ? { "@context": context } : undefined;
}
