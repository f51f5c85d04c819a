/**
 * Safe XML parsing for the harvesting protocols (OAI-PMH, ResourceSync).
 *
 * Everything a server sends is untrusted: a DOCTYPE that declares entities
 * is refused before parsing (so a billion-laughs body is an error at once,
 * never a hang), only the five predefined entities and numeric character
 * references are decoded, nesting and size are bounded, and a body that is
 * not well formed gives a clear error with its line and column instead of
 * the silently partial object fast-xml-parser returns for broken input.
 *
 * @module
 */

import type { XMLParser } from "fast-xml-parser";
import { ProtocolError } from "../http/errors.ts";

/** A parsed element: child elements by qualified name, `@_name` attributes, `#text`. */
export type XmlNode = { [name: string]: unknown };

/** Largest XML text parsed, in characters (the HTTP layer caps bytes before this). */
export const MAX_XML_CHARS = 128 * 1024 * 1024;

/** The five entities XML predefines; no other named entity is decoded. */
const PREDEFINED_ENTITIES = { amp: "&", apos: "'", gt: ">", lt: "<", quot: '"' };

/** fast-xml-parser, loaded on first use: importing tidepool should not pay for it. */
let loaded:
  | Promise<{ parser: XMLParser; validate: typeof import("fast-xml-parser").XMLValidator.validate }>
  | undefined;

function xml() {
  return loaded ??= import("fast-xml-parser").then(({ XMLParser, XMLValidator }) => ({
    parser: new XMLParser(PARSER_OPTIONS),
    validate: (text: string) => XMLValidator.validate(text),
  })).catch((error) => {
    loaded = undefined; // a failed load is tried again next time, not remembered
    throw error;
  });
}

const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  removeNSPrefix: false,
  // An object here means: these named entities only, plus numeric references.
  // (the typings say boolean; the parser reads an object as that table).
  htmlEntities: PREDEFINED_ENTITIES as unknown as boolean,
  processEntities: { enabled: true, maxEntityCount: 1, maxExpandedLength: 1_000_000 },
  maxNestedTags: 64,
};

/**
 * Parses untrusted XML into nested objects.
 *
 * @param text The XML text.
 * @param what What the document is, for error messages (`OAI-PMH ListRecords response`).
 * @param source Where it came from (a URL), for error messages.
 * @returns The document as an object keyed by root element name.
 * @throws {ProtocolError} With code `invalidXml` when the body is not safe, well-formed XML.
 */
export async function parseXml(text: string, what: string, source = ""): Promise<XmlNode> {
  const { parser, validate } = await xml();
  const where = source ? ` from ${source}` : "";
  const fail = (reason: string) =>
    new ProtocolError(`Cannot parse the ${what}${where}: ${reason}`, {
      code: "invalidXml",
      details: text.slice(0, 300),
      hint:
        "The server sent a body that is not usable XML; try again later, and report it to the operator if it persists",
    });
  if (text.length > MAX_XML_CHARS) {
    throw fail(`the body has ${text.length} characters, more than the limit of ${MAX_XML_CHARS}`);
  }
  const prolog = prologOf(text);
  if (/<!DOCTYPE/i.test(prolog) && /<!ENTITY/i.test(prolog)) {
    throw fail(
      "the body declares entities in a DOCTYPE, which tidepool never expands (an entity-expansion attack such as billion laughs looks like this)",
    );
  }
  const valid = validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw fail(
      `the body is not well-formed XML: ${msg.replace(/\s+/g, " ")} (line ${line}, column ${col})`,
    );
  }
  try {
    return parser.parse(text) as XmlNode;
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
}

/** The text before the root element: declaration, comments, DOCTYPE. */
function prologOf(text: string): string {
  const match = /<[A-Za-z_]/.exec(text);
  return match ? text.slice(0, match.index) : text;
}

/** The local part of a qualified name (`dc:title` → `title`). */
export function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon === -1 ? name : name.slice(colon + 1);
}

/** The child values of a node with this local name, as an array (any prefix). */
export function children(node: unknown, name: string): unknown[] {
  if (node === null || typeof node !== "object") return [];
  const record = node as XmlNode;
  let value = record[name];
  if (value === undefined) {
    for (const key in record) {
      if (key.endsWith(`:${name}`)) {
        value = record[key];
        break;
      }
    }
  }
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first child with this local name, or undefined. */
export function child(node: unknown, name: string): unknown {
  return children(node, name)[0];
}

/** The text of a parsed element: a string, or its `#text`; undefined when absent. */
export function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object") {
    const text = (value as XmlNode)["#text"];
    if (text === undefined) return "";
    return typeof text === "string" ? text : String(text);
  }
  return undefined;
}

/** An attribute of a parsed element, by local or qualified name. */
export function attribute(value: unknown, name: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const record = value as XmlNode;
  const direct = record[`@_${name}`];
  if (direct !== undefined) return String(direct);
  for (const key in record) {
    if (key.startsWith("@_") && key.endsWith(`:${name}`)) return String(record[key]);
  }
  return undefined;
}
