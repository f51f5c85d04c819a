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
export function readRecord(node: unknown, prefix: string): OaiRecord | undefined {
  const record = readHeader(child(node, "header"));
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

/** A header element into a record without metadata; undefined when it has no identifier. */
export function readHeader(header: unknown): OaiRecord | undefined {
  const identifier = textOf(child(header, "identifier"))?.trim();
  if (!identifier) return undefined;
  const datestampText = textOf(child(header, "datestamp"))?.trim() ?? "";
  return {
    identifier,
    datestamp: parseUtc(datestampText),
    datestampText,
    setSpec: children(header, "setSpec").map((s) => textOf(s) ?? "").filter((s) => s !== ""),
    deleted: attribute(header, "status") === "deleted",
    metadata: {},
  };
}

/** The header columns; a metadata field of the same name goes to `metadata:<name>`. */
const HEADER_NAMES = new Set(["identifier", "datestamp", "datestampText", "setSpec", "deleted"]);

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
  eachChild(metadata, scope, (key, container, inner) => {
    if (localName(key) === "RDF") {
      for (const description of children(container, "Description")) {
        const about = attribute(description, "about");
        if (about) push(out, `${path}rdf:about`, about);
        flattenInto(description, scopeOf(description, inner), path, undefined, out);
      }
    } else if (prefix === "oai_dc") {
      flattenDc(container, inner, out);
    } else {
      const payload = child(container, "payload");
      // oai_datacite wraps the DataCite resource in a payload element.
      if (payload && typeof payload === "object") {
        flattenInto(container, inner, path, undefined, out, payload);
        eachChild(payload, scopeOf(payload, inner), (_, resource, innermost) => {
          flattenInto(resource, innermost, path, undefined, out);
        });
      } else {
        flattenInto(container, inner, path, undefined, out);
      }
    }
  });
  for (const name of HEADER_NAMES) {
    if (out[name]) {
      (out[`metadata:${name}`] ??= []).push(...out[name]);
      delete out[name];
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

function flattenDc(container: unknown, scope: NamespaceScope, out: Record<string, string[]>) {
  eachChild(container, scope, (key, value, inner) => {
    const name = resolveName(key, inner);
    if (DC_SET.has(name.local) && (name.prefix === "dc" || name.prefix === "")) {
      const text = textOf(value)?.trim();
      if (text) push(out, `dc:${name.local}`, text);
      if (hasChildElements(value)) flattenInto(value, inner, `dc:${name.local}.`, "dc", out);
    } else {
      flattenInto({ [key]: value }, scope, "", undefined, out);
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
  skip?: unknown,
) {
  eachChild(node, scope, (key, value, inner) => {
    if (value === skip) return;
    const name = resolveName(key, inner);
    if (name.uri === MARC_NAMESPACE && flattenMarc(name.local, value, path, out)) return;
    // An rdf:Description inside a property is skipped in the column name.
    if (name.local === "Description" && path !== "") {
      flattenInto(value, inner, path, parentPrefix, out);
      return;
    }
    const segment = name.prefix && name.prefix !== parentPrefix
      ? `${name.prefix}:${name.local}`
      : name.local;
    const field = path + segment;
    const text = textOf(value)?.trim();
    if (text) push(out, field, text);
    else if (!hasChildElements(value)) {
      const resource = attribute(value, "resource");
      if (resource) push(out, field, resource);
    }
    if (hasChildElements(value)) flattenInto(value, inner, `${field}.`, name.prefix, out);
  });
}

/** A MARC control or data field into `marc:001`, `marc:245$a`; false for other elements. */
function flattenMarc(local: string, value: unknown, path: string, out: Record<string, string[]>) {
  const tag = attribute(value, "tag");
  if (local === "controlfield" && tag) {
    const text = textOf(value)?.trim();
    if (text) push(out, `${path}marc:${tag}`, text);
    return true;
  }
  if (local === "datafield" && tag) {
    for (const subfield of children(value, "subfield")) {
      const text = textOf(subfield)?.trim();
      if (text) push(out, `${path}marc:${tag}$${attribute(subfield, "code") ?? ""}`, text);
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

function push(out: Record<string, string[]>, name: string, value: string) {
  (out[name] ??= []).push(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
