/**
 * The one XML entry point of tidepool: OAI-PMH, SPARQL results XML,
 * ResourceSync and Sitemaps are all read through {@linkcode readXml} (events)
 * or {@linkcode parseXml} (objects built on it).
 *
 * Everything a server sends is untrusted. The text goes through saxes, a
 * parser that checks XML 1.0 well-formedness as it reads, so a truncated or
 * broken body is an error (never a shorter document); character references
 * and the five predefined entities are decoded, any other entity is refused
 * (undeclared, or declared in a DOCTYPE: an entity-expansion attack such as
 * billion laughs looks like that), and size and nesting are bounded.
 *
 * @module
 */

import type { SaxesParser, SaxesTagPlain } from "saxes";
import { ProtocolError } from "../errors/errors.ts";

/** A parsed element: child elements by qualified name, `@_name` attributes, `#text`. */
export type XmlNode = { [name: string]: unknown };

/** Largest XML text parsed, in characters (the HTTP layer caps bytes before this). */
export const MAX_XML_CHARS = 128 * 1024 * 1024;

/** Deepest element nesting accepted; real protocol documents stay far below it. */
export const MAX_XML_DEPTH = 64;

/** How to build the objects. */
export interface ParseXmlOptions {
  /**
   * Trim the text of elements (default true). SPARQL literals keep their
   * whitespace, so the SPARQL reader passes false.
   */
  trim?: boolean;
  /**
   * Elements handed on as each one closes instead of kept in the tree: those
   * of this local name at this depth (the root element is at depth 1). A
   * long list (an OAI-PMH page of records) is then never held as one tree.
   */
  each?: {
    depth: number;
    name: string;
    /** Also hand on each element's XML as sent (see {@linkcode parseXml}). */
    raw?: boolean;
    element: (node: unknown, xml?: string) => void;
  };
}

/** saxes, loaded on first use: importing tidepool should not pay for it. */
let loaded: Promise<typeof import("saxes")> | undefined;

function saxes() {
  return loaded ??= import("saxes").catch((error) => {
    loaded = undefined; // a failed load is tried again next time, not remembered
    throw error;
  });
}

/** What a streaming reader does with each event; see {@linkcode readXml}. */
export interface XmlHandlers {
  /**
   * An element starts (its qualified name and attributes); `end` is the
   * offset in the text just after its start tag (one whole text only).
   */
  open(tag: SaxesTagPlain, end: number): void;
  /** An element ends; `end` is the offset just after its end tag (one whole text only). */
  close(tag: SaxesTagPlain, end: number): void;
  /** Text or CDATA inside the current element, references decoded. */
  text(chunk: string): void;
}

/** Options of {@linkcode readXml}. */
export interface ReadXmlOptions {
  /** The "what to do" of the error, where the caller knows better (another format). */
  hint?: string;
}

/**
 * Reads untrusted XML as a stream of events, under every rule of this
 * module: the size cap, well-formedness, decoded references, refused
 * entities, the nesting cap. Readers that fill columns as they go (SPARQL
 * results) use this; {@linkcode parseXml} builds objects on top of it. A
 * {@linkcode ProtocolError} thrown by a handler passes through unchanged.
 *
 * @param text The XML text, whole or as chunks while it arrives (a chunk
 *   is parsed as it comes, so the whole text is never held).
 * @param what What the document is, for error messages.
 * @param source Where it came from (a URL), for error messages.
 * @param handlers What to do with each element and text.
 * @param options The hint of the error.
 * @throws {ProtocolError} With code `invalidXml` when the body is not safe, well-formed XML.
 */
export async function readXml(
  text: string | AsyncIterable<string>,
  what: string,
  source: string,
  handlers: XmlHandlers,
  options: ReadXmlOptions = {},
): Promise<void> {
  const { SaxesParser } = await saxes();
  const where = source ? ` from ${source}` : "";
  // The start of the body, for the error's details.
  let head = "";
  const fail = (reason: string) =>
    new ProtocolError(`Cannot parse the ${what}${where}: ${reason}`, {
      code: "invalidXml",
      details: head,
      hint: options.hint ??
        "The server sent a body that is not usable XML; try again later, and report it to the operator if it persists",
    });
  // With position tracking saxes is faster, not slower (its other path reads
  // characters more slowly), and errors can say where the body breaks.
  const parser: SaxesParser<{ xmlns: false; position: true }> = new SaxesParser({
    xmlns: false,
    position: true,
  });
  let depth = 0;
  // Offsets count from the text as given, a byte order mark included.
  let offset = 0;
  let refusal: string | undefined;
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      refusal =
        "the body declares entities in a DOCTYPE, which tidepool never expands (an entity-expansion attack such as billion laughs looks like this)";
      throw new Error(refusal);
    }
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    if (++depth > MAX_XML_DEPTH) {
      refusal = `elements are nested deeper than ${MAX_XML_DEPTH} levels`;
      throw new Error(refusal);
    }
    handlers.open(tag, parser.position - offset);
  });
  parser.on("text", (chunk) => handlers.text(chunk));
  parser.on("cdata", (chunk) => handlers.text(chunk));
  parser.on("closetag", (tag: SaxesTagPlain) => {
    depth--;
    handlers.close(tag, parser.position - offset);
  });
  /** A parser's error as the error of this module; a handler's ProtocolError passes unchanged. */
  const failure = (error: unknown) => {
    if (error instanceof ProtocolError) return error;
    if (refusal) return fail(refusal);
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\s+/g, " ").replace(/\.$/, "");
    // saxes says `line:column: reason`
    const at = /^(\d+):(\d+): (.*)$/.exec(message);
    return fail(
      `the body is not well-formed XML: ${
        at ? `${at[3]} (line ${at[1]}, column ${at[2]})` : message
      }`,
    );
  };
  const feed = (chunk: string) => {
    try {
      parser.write(chunk);
    } catch (error) {
      throw failure(error);
    }
  };
  // A byte order mark is an encoding signature, not document text.
  const withoutMark = (chunk: string) => chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
  // Whole text is one chunk. An error of the stream itself (a cut
  // connection, a stall) passes unchanged.
  let length = 0;
  let first = true;
  for await (const chunk of typeof text === "string" ? [text] : text) {
    if (chunk === "") continue;
    if (head.length < 300) head += chunk.slice(0, 300 - head.length);
    length += chunk.length;
    if (length > MAX_XML_CHARS) {
      throw fail(`the body has ${length} characters, more than the limit of ${MAX_XML_CHARS}`);
    }
    const fed = first ? withoutMark(chunk) : chunk;
    if (fed !== chunk) offset = -1;
    feed(fed);
    first = false;
  }
  try {
    parser.close();
  } catch (error) {
    throw failure(error);
  }
}

/** An element being read: its object, its text so far, whether it has children. */
interface Frame {
  name: string;
  node: XmlNode;
  text: string;
  hasChildren: boolean;
  /** Where the element's start tag begins, when its XML is handed on. */
  start?: number;
  /** The namespace declarations it inherits, as attribute text. */
  declarations?: string;
}

/**
 * Parses untrusted XML into nested objects: an element with neither
 * attributes nor children is its text (a string); any other element is an
 * object with `@_`-prefixed attributes, child elements by qualified name
 * (an array when repeated) and its own text under `#text` when not blank.
 *
 * @param text The XML text.
 * @param what What the document is, for error messages (`OAI-PMH ListRecords response`).
 * @param source Where it came from (a URL), for error messages.
 * @param options Whether to trim text; which elements to hand on as they
 *   close, with their XML as sent when `each.raw` (the namespace
 *   declarations they inherit added to the start tag, so it stands alone).
 * @returns The document as an object keyed by root element name.
 * @throws {ProtocolError} With code `invalidXml` when the body is not safe, well-formed XML.
 */
export async function parseXml(
  text: string,
  what: string,
  source = "",
  options: ParseXmlOptions = {},
): Promise<XmlNode> {
  const trim = options.trim ?? true;
  const each = options.each;
  const root: XmlNode = {};
  const stack: Frame[] = [{ name: "", node: root, text: "", hasChildren: false }];
  await readXml(text, what, source, {
    open(tag, end) {
      const node: XmlNode = {};
      for (const name in tag.attributes) node[`@_${name}`] = tag.attributes[name];
      stack[stack.length - 1].hasChildren = true;
      const frame: Frame = { name: tag.name, node, text: "", hasChildren: false };
      if (each?.raw && stack.length === each.depth && localName(tag.name) === each.name) {
        // No `<` inside a start tag (attribute values may not hold one).
        frame.start = text.lastIndexOf("<", end - 1);
        frame.declarations = inheritedDeclarations(stack, node);
      }
      stack.push(frame);
    },
    text(chunk) {
      stack[stack.length - 1].text += chunk;
    },
    close(_tag, end) {
      const frame = stack.pop()!;
      const own = trim ? frame.text.trim() : frame.text;
      let value: unknown = frame.node;
      if (!frame.hasChildren && Object.keys(frame.node).length === 0) value = own;
      else if (own !== "" && (!frame.hasChildren || own.trim() !== "")) frame.node["#text"] = own;
      if (each && stack.length === each.depth && localName(frame.name) === each.name) {
        if (frame.start === undefined) each.element(value);
        else {
          const at = frame.start + 1 + frame.name.length;
          const xml = text.slice(frame.start, at) + (frame.declarations ?? "") +
            text.slice(at, end);
          each.element(value, xml);
        }
        return;
      }
      const parent = stack[stack.length - 1].node;
      const previous = parent[frame.name];
      if (previous === undefined) parent[frame.name] = value;
      else if (Array.isArray(previous)) previous.push(value);
      else parent[frame.name] = [previous, value];
    },
  });
  return root;
}

/**
 * The namespace declarations in scope from the enclosing elements that the
 * element does not make itself, as attribute text: its XML then stands alone.
 */
function inheritedDeclarations(stack: readonly Frame[], own: XmlNode): string {
  const found = new Map<string, string>();
  for (let i = stack.length - 1; i > 0; i--) {
    for (const key in stack[i].node) {
      if (key !== "@_xmlns" && !key.startsWith("@_xmlns:")) continue;
      if (own[key] !== undefined || found.has(key)) continue;
      found.set(key, String(stack[i].node[key]));
    }
  }
  let text = "";
  for (const [key, value] of found) {
    const escaped = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
    text += ` ${key.slice(2)}="${escaped}"`;
  }
  return text;
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
      if (key.endsWith(`:${name}`) && !key.startsWith("@_")) {
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
