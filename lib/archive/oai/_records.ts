/**
 * OAI-PMH records and headers into flat {@linkcode OaiRecord} objects.
 *
 * @module
 */

import { attribute, child, children, localName, textOf, type XmlNode } from "../../xml/xml.ts";
import { parseUtc } from "./_dates.ts";
import { MARC_NAMESPACE, type NamespaceScope, resolveName, scopeOf } from "./_namespaces.ts";
import type { OaiRecord } from "./types.ts";
import { DC_ELEMENTS } from "./dublin_core.ts";

const DC_SET = new Set<string>(DC_ELEMENTS);

/**
 * A record element (header, metadata, about) into a record; undefined when it
 * has no identifier. The `about` containers' fields are named `about.<path>`.
 */
export function readRecord(node: unknown, prefix: string, xml?: string): OaiRecord | undefined {
  const record = readHeader(child(node, "header"), xml);
  if (!record) return undefined;
  const metadata = child(node, "metadata");
  if (metadata && typeof metadata === "object") {
    record.metadata = flattenMetadata(metadata as XmlNode, prefix, "");
  }
  for (const about of children(node, "about")) {
    if (!about || typeof about !== "object") continue;
    for (const [name, values] of Object.entries(flattenMetadata(about as XmlNode, "", "about."))) {
      (record.metadata[name] ??= []).push(...values);
    }
  }
  return record;
}

/**
 * What in a GetRecord answer OAI-PMH 2.0 does not allow, given its record
 * elements and the first one read: more than one record, a datestamp missing
 * or not a date, no metadata on a record that is not deleted.
 */
export function recordProblems(nodes: unknown[], record: OaiRecord): string[] {
  const problems: string[] = [];
  if (nodes.length > 1) problems.push(`${nodes.length} records (the first is read)`);
  if (record.datestampText === "") problems.push("no datestamp");
  else if (!record.datestamp) problems.push(`datestamp ${record.datestampText} is not a date`);
  if (!record.deleted && child(nodes[0], "metadata") === undefined) {
    problems.push("no metadata, and the header does not say deleted");
  }
  return problems;
}

/**
 * A header element into a record without metadata; undefined when it has no
 * identifier. `xml`, when given, is kept as the record's `raw`.
 */
export function readHeader(header: unknown, xml?: string): OaiRecord | undefined {
  const identifier = textOf(child(header, "identifier"))?.trim();
  if (!identifier) return undefined;
  const datestampText = textOf(child(header, "datestamp"))?.trim() ?? "";
  return {
    identifier,
    datestamp: parseUtc(datestampText),
    datestampText,
    setSpec: children(header, "setSpec").map((s) => (textOf(s) ?? "").trim()).filter((s) =>
      s !== ""
    ),
    deleted: attribute(header, "status") === "deleted",
    metadata: {},
    ...(xml === undefined ? {} : { raw: xml }),
  };
}

/** The header columns; a metadata field of the same name goes to `metadata:<name>`. */
const HEADER_NAMES = new Set([
  "identifier",
  "datestamp",
  "datestampText",
  "setSpec",
  "deleted",
  "raw",
]);

/** The end of a field's companion column: the `xml:lang` of each of its values. */
export const LANG_SUFFIX = "@xml:lang";

/** The language in scope at an element: its own `xml:lang`, else its parent's. */
function langOf(value: unknown, inherited: string): string {
  if (!value || typeof value !== "object") return inherited;
  const own = (value as XmlNode)["@_xml:lang"];
  return own === undefined ? inherited : String(own);
}

/** An element's text as sent; undefined when it has none (an empty or container element). */
function keptText(value: unknown): string | undefined {
  const text = textOf(value);
  return text ? text : undefined;
}

/** The OAI-PMH envelope's default namespace, in scope where a record starts. */
const ENVELOPE_SCOPE: NamespaceScope = new Map([["", "http://www.openarchives.org/OAI/2.0/"]]);

/**
 * The metadata element's container (`oai_dc:dc`, `mods`, `record`, `rdf:RDF`)
 * flattened: no element text is dropped, and no field takes a header name.
 */
function flattenMetadata(
  metadata: XmlNode,
  prefix: string,
  path: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const scope = scopeOf(metadata, ENVELOPE_SCOPE);
  const top = langOf(metadata, "");
  eachChild(metadata, scope, (key, container, inner) => {
    const lang = langOf(container, top);
    if (localName(key) === "RDF") {
      for (const description of children(container, "Description")) {
        const about = attribute(description, "about");
        const inside = langOf(description, lang);
        if (about) push(out, `${path}rdf:about`, about, inside);
        flattenInto(description, scopeOf(description, inner), path, undefined, out, inside);
      }
    } else if (prefix === "oai_dc") {
      flattenDc(container, inner, out, lang);
    } else {
      const payload = child(container, "payload");
      // oai_datacite wraps the DataCite resource in a payload element.
      if (payload && typeof payload === "object") {
        flattenInto(container, inner, path, undefined, out, lang, payload);
        eachChild(payload, scopeOf(payload, inner), (_, resource, innermost) => {
          flattenInto(resource, innermost, path, undefined, out, langOf(resource, lang));
        });
      } else {
        flattenInto(container, inner, path, undefined, out, lang);
      }
    }
  });
  // A field's languages are kept only where one of its values has one.
  for (const name in out) {
    if (name.endsWith(LANG_SUFFIX) && out[name].every((lang) => lang === "")) delete out[name];
  }
  for (const name of HEADER_NAMES) {
    for (const field of [name, `${name}${LANG_SUFFIX}`]) {
      if (out[field]) {
        (out[`metadata:${field}`] ??= []).push(...out[field]);
        delete out[field];
      }
    }
  }
  return out;
}

/** Calls back with each child element (every occurrence) and the scope inside it. */
function eachChild(
  node: unknown,
  scope: NamespaceScope,
  visit: (key: string, value: unknown, inner: NamespaceScope) => void,
) {
  if (!node || typeof node !== "object") return;
  const record = node as XmlNode;
  for (const key in record) {
    if (key.startsWith("@_") || key === "#text") continue;
    for (const value of asArray(record[key])) visit(key, value, scopeOf(value, scope));
  }
}

function flattenDc(
  container: unknown,
  scope: NamespaceScope,
  out: Record<string, string[]>,
  lang: string,
) {
  eachChild(container, scope, (key, value, inner) => {
    const name = resolveName(key, inner);
    const own = langOf(value, lang);
    if (DC_SET.has(name.local) && (name.prefix === "dc" || name.prefix === "")) {
      const text = keptText(value);
      if (text !== undefined) push(out, `dc:${name.local}`, text, own);
      if (hasChildElements(value)) flattenInto(value, inner, `dc:${name.local}.`, "dc", out, own);
    } else {
      flattenInto({ [key]: value }, scope, "", undefined, out, lang);
    }
  });
}

/**
 * Every element below `node` into fields named by their path: a segment is
 * the element's local name, qualified with its namespace's prefix where the
 * namespace differs from its parent's. MARCXML fields are named by tag and
 * subfield code (`marc:245$a`).
 */
function flattenInto(
  node: unknown,
  scope: NamespaceScope,
  path: string,
  parentPrefix: string | undefined,
  out: Record<string, string[]>,
  lang: string,
  skip?: unknown,
) {
  eachChild(node, scope, (key, value, inner) => {
    if (value === skip) return;
    const name = resolveName(key, inner);
    const own = langOf(value, lang);
    if (name.uri === MARC_NAMESPACE && flattenMarc(name.local, value, path, out, own)) return;
    // An rdf:Description inside a property is skipped in the column name.
    if (name.local === "Description" && path !== "") {
      flattenInto(value, inner, path, parentPrefix, out, own);
      return;
    }
    const segment = name.prefix && name.prefix !== parentPrefix
      ? `${name.prefix}:${name.local}`
      : name.local;
    const field = path + segment;
    const text = keptText(value);
    if (text !== undefined) push(out, field, text, own);
    else if (!hasChildElements(value)) {
      const resource = attribute(value, "resource");
      if (resource) push(out, field, resource, own);
    }
    if (hasChildElements(value)) flattenInto(value, inner, `${field}.`, name.prefix, out, own);
  });
}

/** A MARC control or data field into `marc:001`, `marc:245$a`; false for other elements. */
function flattenMarc(
  local: string,
  value: unknown,
  path: string,
  out: Record<string, string[]>,
  lang: string,
) {
  const tag = attribute(value, "tag");
  if (local === "controlfield" && tag) {
    const text = keptText(value);
    if (text !== undefined) push(out, `${path}marc:${tag}`, text, lang);
    return true;
  }
  if (local === "datafield" && tag) {
    for (const subfield of children(value, "subfield")) {
      const text = keptText(subfield);
      const field = `${path}marc:${tag}$${attribute(subfield, "code") ?? ""}`;
      if (text !== undefined) push(out, field, text, langOf(subfield, lang));
    }
    return true;
  }
  return false;
}

function hasChildElements(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  for (const key in value as XmlNode) {
    if (!key.startsWith("@_") && key !== "#text") return true;
  }
  return false;
}

/** A value, and its language in the field's companion column ("" when it has none). */
function push(out: Record<string, string[]>, name: string, value: string, lang: string) {
  (out[name] ??= []).push(value);
  (out[`${name}${LANG_SUFFIX}`] ??= []).push(lang);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
