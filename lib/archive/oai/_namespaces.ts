/**
 * The column prefixes of well-known metadata namespaces, so that a field is
 * named the same whether a repository writes `<mods:title>` or a default
 * namespace `<title xmlns="http://www.loc.gov/mods/v3">`.
 *
 * @module
 */

import type { XmlNode } from "../../xml/xml.ts";

/** Namespace URI to the prefix its columns carry. */
export const KNOWN_PREFIXES: Readonly<Record<string, string>> = {
  "http://purl.org/dc/elements/1.1/": "dc",
  "http://purl.org/dc/terms/": "dcterms",
  "http://www.openarchives.org/OAI/2.0/oai_dc/": "oai_dc",
  "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
  "http://www.loc.gov/mods/v3": "mods",
  "http://www.loc.gov/MARC21/slim": "marc",
  "http://datacite.org/schema/kernel-2.2": "datacite",
  "http://datacite.org/schema/kernel-3": "datacite",
  "http://datacite.org/schema/kernel-4": "datacite",
  "http://schema.datacite.org/oai/oai-1.0/": "oai_datacite",
  "http://schema.datacite.org/oai/oai-1.1/": "oai_datacite",
  "http://arxiv.org/OAI/arXiv/": "arXiv",
  "http://arxiv.org/OAI/arXivRaw/": "arXivRaw",
  "http://ns.nsdl.org/nsdl_dc_v1.02/": "nsdl_dc",
  "http://www.w3.org/XML/1998/namespace": "xml",
};

/** The MARCXML namespace, whose fields are named by tag and subfield code. */
export const MARC_NAMESPACE = "http://www.loc.gov/MARC21/slim";

/** Prefix to namespace URI in scope at an element; `""` is the default namespace. */
export type NamespaceScope = ReadonlyMap<string, string>;

/** The scope inside an element: the outer scope plus its `xmlns` declarations. */
export function scopeOf(node: unknown, outer: NamespaceScope): NamespaceScope {
  if (node === null || typeof node !== "object") return outer;
  let scope: Map<string, string> | undefined;
  for (const key in node as XmlNode) {
    if (key !== "@_xmlns" && !key.startsWith("@_xmlns:")) continue;
    scope ??= new Map(outer);
    scope.set(key === "@_xmlns" ? "" : key.slice(8), String((node as XmlNode)[key]));
  }
  return scope ?? outer;
}

/** An element name resolved: its namespace URI, column prefix and local name. */
export interface ResolvedName {
  uri: string;
  prefix: string;
  local: string;
}

/** Resolves a qualified name in a scope; the prefix is the well-known one for the URI. */
export function resolveName(qualified: string, scope: NamespaceScope): ResolvedName {
  const colon = qualified.indexOf(":");
  const written = colon === -1 ? "" : qualified.slice(0, colon);
  const local = colon === -1 ? qualified : qualified.slice(colon + 1);
  const uri = written === "xml" ? "http://www.w3.org/XML/1998/namespace" : scope.get(written) ?? "";
  return { uri, prefix: KNOWN_PREFIXES[uri] ?? written, local };
}
