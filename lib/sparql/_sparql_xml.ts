/**
 * Reads SPARQL Query Results XML through the events of the one XML entry
 * point ({@linkcode readXml}) straight into {@linkcode ResultColumns}: no
 * document tree is built, and a document that is not well-formed (a
 * truncated body, an unclosed tag, an undeclared entity) is an error, never a
 * shorter table. Character references and the predefined entities are
 * decoded; entities declared in a DOCTYPE are refused.
 *
 * @module
 */

import type { SaxesTagPlain } from "saxes";
import { localName, readXml } from "../xml/xml.ts";
import {
  BNODE,
  ColumnsBuilder,
  IRI,
  LITERAL,
  MALFORMED_RESULTS_HINT,
  malformedResults,
  type ResultColumns,
  type TermColumn,
  TRIPLE,
  VIRTUOSO_BLANK,
} from "./_result_columns.ts";

/** The term being read inside a `<binding>` or a quoted triple. */
interface TermInProgress {
  kind: "uri" | "bnode" | "literal";
  text: string;
  lang?: string;
  datatype?: string;
}

/** A quoted triple being read: its parts in JSON-results form. */
interface TripleInProgress {
  parts: Record<string, unknown>;
  part?: string;
}

function malformed(detail: string, cause?: unknown) {
  return malformedResults("XML", detail, cause);
}

/**
 * Reads SPARQL 1.1 Query Results XML: the columns of a SELECT, or an ASK's boolean.
 *
 * @param text The document, whole or as chunks while it arrives.
 * @param source Where it came from, for error messages.
 */
export async function parseXmlResults(
  text: string | AsyncIterable<string>,
  source = "",
): Promise<ResultColumns | boolean> {
  const reader = new ResultsReader();
  await readXml(text, "SPARQL XML results", source, {
    open: (tag) => reader.open(tag),
    close: (tag) => reader.close(tag),
    text: (chunk) => reader.text(chunk),
  }, { hint: MALFORMED_RESULTS_HINT });
  return reader.result();
}

/** Keeps the state of one document as saxes reports its tags. */
class ResultsReader {
  #sawRoot = false;
  #inHead = false;
  #vars: string[] = [];
  #rows: ColumnsBuilder | undefined;
  #row = -1;
  #column: TermColumn | undefined;
  #boundInBinding = false;
  #inBinding = false;
  #term: TermInProgress | undefined;
  #triples: TripleInProgress[] = [];
  #boolean: string | undefined;

  open(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    if (!this.#sawRoot) {
      if (name !== "sparql") throw malformed(`the root element is <${tag.name}>, not <sparql>`);
      this.#sawRoot = true;
      return;
    }
    if (this.#inBinding) return this.#openInBinding(name, tag);
    switch (name) {
      case "head":
        this.#inHead = true;
        return;
      case "variable":
        if (this.#inHead) this.#vars.push(String(tag.attributes.name ?? ""));
        return;
      case "results":
        this.#rows ??= new ColumnsBuilder();
        return;
      case "result":
        if (this.#rows === undefined) throw malformed("a <result> outside <results>");
        this.#row = this.#rows.nextRow();
        return;
      case "binding":
        if (this.#row < 0) throw malformed("a <binding> outside a <result>");
        this.#inBinding = true;
        this.#boundInBinding = false;
        this.#column = this.#rows!.column(String(tag.attributes.name ?? ""));
        return;
      case "boolean":
        this.#boolean = "";
        return;
    }
  }

  #openInBinding(name: string, tag: SaxesTagPlain): void {
    const triple = this.#triples.at(-1);
    if (triple !== undefined && triple.part === undefined) {
      if (name === "subject" || name === "predicate" || name === "object") triple.part = name;
      return;
    }
    if (name === "triple") {
      this.#triples.push({ parts: {} });
      return;
    }
    if (name === "uri" || name === "bnode" || name === "literal") {
      const attributes = tag.attributes;
      this.#term = { kind: name, text: "" };
      if (name === "literal") {
        const lang = attributes["xml:lang"] ?? attributes.lang;
        if (lang !== undefined) this.#term.lang = lang;
        else if (attributes.datatype !== undefined) this.#term.datatype = attributes.datatype;
      }
    }
  }

  text(chunk: string): void {
    if (this.#term !== undefined) this.#term.text += chunk;
    else if (this.#boolean !== undefined) this.#boolean += chunk;
  }

  close(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    if (this.#inBinding) return this.#closeInBinding(name);
    if (name === "head") this.#inHead = false;
  }

  #closeInBinding(name: string): void {
    const triple = this.#triples.at(-1);
    if (name === "binding") {
      if (!this.#boundInBinding) throw malformed("a binding without uri, bnode or literal");
      this.#inBinding = false;
      return;
    }
    if (this.#term !== undefined && name === this.#term.kind) {
      const term = this.#term;
      this.#term = undefined;
      if (triple !== undefined && triple.part !== undefined) {
        triple.parts[triple.part] = jsonTerm(term);
      } else this.#bind(term);
      return;
    }
    if (triple === undefined) return;
    if (name === triple.part) triple.part = undefined;
    else if (name === "triple") {
      this.#triples.pop();
      const outer = this.#triples.at(-1);
      if (outer?.part !== undefined) {
        outer.parts[outer.part] = { type: "triple", value: triple.parts };
      } else this.#bindTriple(triple.parts);
    }
  }

  #bind(term: TermInProgress): void {
    this.#boundInBinding = true;
    const column = this.#column!;
    if (term.kind === "literal") {
      this.#rows!.set(column, this.#row, LITERAL, term.text, term.datatype, term.lang);
    } else {
      const value = term.text.trim();
      if (value.startsWith(VIRTUOSO_BLANK)) {
        this.#rows!.set(column, this.#row, BNODE, value.slice(VIRTUOSO_BLANK.length));
      } else this.#rows!.set(column, this.#row, term.kind === "uri" ? IRI : BNODE, value);
    }
  }

  #bindTriple(parts: Record<string, unknown>): void {
    this.#boundInBinding = true;
    this.#rows!.set(this.#column!, this.#row, TRIPLE, JSON.stringify(parts));
  }

  result(): ResultColumns | boolean {
    if (this.#boolean !== undefined) {
      const value = this.#boolean.trim();
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      throw malformed(`the boolean is ${JSON.stringify(value)}, not true or false`);
    }
    return (this.#rows ?? new ColumnsBuilder()).finish(this.#vars);
  }
}

/** A term of a quoted triple, in the JSON results form. */
function jsonTerm(term: TermInProgress): Record<string, string> {
  if (term.kind === "literal") {
    const literal: Record<string, string> = { type: "literal", value: term.text };
    if (term.lang !== undefined) literal["xml:lang"] = term.lang;
    else if (term.datatype !== undefined) literal.datatype = term.datatype;
    return literal;
  }
  return { type: term.kind, value: term.text.trim() };
}
