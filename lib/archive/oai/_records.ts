/**
 * OAI-PMH records and headers into flat {@linkcode OaiRecord} objects.
 *
 * @module
 */

import { attribute, child, children, localName, textOf, type XmlNode } from "../_xml.ts";
import { parseUtc } from "./_dates.ts";
import type { OaiRecord } from "./types.ts";

/** The fifteen Dublin Core elements, the fixed columns of an `oai_dc` table. */
export const DC_ELEMENTS: readonly string[] = [
  "title",
  "creator",
  "subject",
  "description",
  "publisher",
  "contributor",
  "date",
  "type",
  "format",
  "identifier",
  "source",
  "language",
  "relation",
  "coverage",
  "rights",
];
const DC_SET = new Set(DC_ELEMENTS);

/** A record element (header and metadata) into a record; undefined when it has no identifier. */
export function readRecord(node: unknown, prefix: string): OaiRecord | undefined {
  const record = readHeader(child(node, "header"));
  if (!record) return undefined;
  const metadata = child(node, "metadata");
  if (metadata && typeof metadata === "object") {
    record.metadata = flattenMetadata(metadata as XmlNode, prefix);
  }
  return record;
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

/** The metadata element's single container (`oai_dc:dc`, `rdf:RDF`, ...) flattened. */
function flattenMetadata(metadata: XmlNode, prefix: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key in metadata) {
    if (key.startsWith("@_") || key === "#text") continue;
    for (const container of asArray(metadata[key])) {
      if (localName(key) === "RDF") {
        for (const description of children(container, "Description")) {
          const about = attribute(description, "about");
          if (about) push(out, "rdf:about", about);
          flattenInto(description, "", out);
        }
      } else if (prefix === "oai_dc") {
        flattenDc(container, out);
      } else {
        flattenInto(container, "", out);
      }
    }
  }
  return out;
}

function flattenDc(container: unknown, out: Record<string, string[]>) {
  if (!container || typeof container !== "object") return;
  const node = container as XmlNode;
  for (const key in node) {
    if (key.startsWith("@_") || key === "#text") continue;
    const local = localName(key);
    const name = DC_SET.has(local) ? `dc:${local}` : key;
    for (const value of asArray(node[key])) {
      const text = textOf(value);
      if (text !== undefined && text !== "") push(out, name, text);
    }
  }
}

function flattenInto(node: unknown, path: string, out: Record<string, string[]>) {
  if (!node || typeof node !== "object") return;
  const record = node as XmlNode;
  for (const key in record) {
    if (key.startsWith("@_") || key === "#text") continue;
    const name = path + key;
    for (const value of asArray(record[key])) {
      if (typeof value !== "object" || value === null) {
        const text = textOf(value);
        if (text) push(out, name, text);
        continue;
      }
      const element = value as XmlNode;
      const resource = attribute(element, "resource");
      if (resource) {
        push(out, name, resource);
        continue;
      }
      const nested = Object.keys(element).filter((k) => !k.startsWith("@_") && k !== "#text");
      if (nested.length === 0) {
        const text = textOf(element);
        if (text) push(out, name, text);
        continue;
      }
      for (const inner of nested) {
        // An rdf:Description inside a property is skipped in the column name.
        if (localName(inner) === "Description") {
          for (const description of asArray(element[inner])) {
            flattenInto(description, `${name}.`, out);
          }
        } else {
          flattenInto({ [inner]: element[inner] }, `${name}.`, out);
        }
      }
    }
  }
}

function push(out: Record<string, string[]>, name: string, value: string) {
  (out[name] ??= []).push(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
