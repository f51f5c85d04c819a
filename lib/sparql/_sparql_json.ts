/**
 * Reads SPARQL 1.1 Query Results JSON into {@linkcode ResultColumns}, from
 * the whole text or from chunks as they arrive. A scanner follows the
 * document's structure (strings, escapes, brackets) without building it;
 * the elements of `results.bindings` are handed to `JSON.parse` a chunk's
 * worth at a time and their terms written straight into the columns, so
 * neither the whole text nor a tree of every binding is ever held. The rest
 * of the document (head, boolean, link) is kept as text, without the
 * bindings, and parsed at the end. Keys are not assumed to come in any
 * order: a head after the results is read the same.
 *
 * @module
 */

import {
  BNODE,
  ColumnsBuilder,
  IRI,
  LITERAL,
  malformedResults,
  type ResultColumns,
  TRIPLE,
  VIRTUOSO_BLANK,
} from "./_result_columns.ts";

function malformed(detail: string, cause?: unknown) {
  return malformedResults("JSON", detail, cause);
}

interface JsonTerm {
  type: string;
  value: string;
  datatype?: string;
  "xml:lang"?: string;
}

type Binding = Record<string, JsonTerm | undefined | null> | null;

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
/** `results` is open at this depth of containers, and `bindings` opens one below it. */
const BINDINGS_DEPTH = 3;

/**
 * Reads SPARQL 1.1 Query Results JSON: the columns of a SELECT, or an ASK's boolean.
 *
 * @param text The document, whole or as chunks while it arrives.
 */
export async function parseJsonResults(
  text: string | AsyncIterable<string>,
): Promise<ResultColumns | boolean> {
  const reader = new JsonResultsReader();
  if (typeof text === "string") reader.write(text);
  else for await (const chunk of text) reader.write(chunk);
  return reader.finish();
}

/** The state of one document between chunks. */
class JsonResultsReader {
  readonly #rows = new ColumnsBuilder();
  /** The open containers, `{` or `[`. */
  readonly #stack: number[] = [];
  /** The last key read in each open object, by depth. */
  readonly #keys: (string | undefined)[] = [];
  #inString = false;
  #escaped = false;
  /** A string outside the bindings that began in an earlier chunk (keys, variables). */
  #stringCarry = "";
  #lastString: string | undefined;
  /** The document without the elements of `results.bindings`. */
  readonly #skeleton: string[] = [];
  #inBindings = false;
  #sawBindings = false;
  /** The text of the bindings array after the last element parsed. */
  #carry = "";
  #batches = 0;

  write(chunk: string): void {
    const stack = this.#stack;
    // Where this chunk's text for the skeleton (outside) or the bindings (inside) begins.
    let from = 0;
    let stringStart = 0;
    // After the last binding that ended in this chunk.
    let lastEnd = -1;
    let i = 0;
    if (this.#inString) {
      // A string that began in an earlier chunk goes on here.
      const end = this.#stringEnd(chunk, 0);
      if (end >= 0) this.#closeString(chunk, 0, end);
      i = end >= 0 ? end + 1 : chunk.length;
    }
    // Only the characters outside strings are visited one by one: a string's
    // end is found by `indexOf`, which runs natively. Walking every character
    // of the strings (most of a results document) took as long as parsing it.
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        stringStart = i + 1;
        this.#escaped = false;
        const end = this.#stringEnd(chunk, stringStart);
        if (end < 0) {
          this.#inString = true;
          break;
        }
        if (!this.#inBindings) this.#lastString = chunk.slice(stringStart, end);
        i = end;
      } else if (c === COLON) {
        if (!this.#inBindings) this.#keys[stack.length] = this.#lastString;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (
          c === OPEN_ARRAY && !this.#inBindings && !this.#sawBindings &&
          stack.length === BINDINGS_DEPTH - 1 && stack[0] === OPEN_OBJECT &&
          stack[1] === OPEN_OBJECT && this.#keys[1] === "results" && this.#keys[2] === "bindings"
        ) {
          this.#skeleton.push(chunk.slice(from, i + 1));
          from = i + 1;
          this.#inBindings = true;
          this.#sawBindings = true;
        }
        stack.push(c);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const open = stack.pop();
        if (open !== (c === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY)) {
          throw malformed("the body is not JSON (its brackets do not match)");
        }
        if (this.#inBindings) {
          if (stack.length === BINDINGS_DEPTH) lastEnd = i + 1;
          else if (stack.length === BINDINGS_DEPTH - 1) {
            // The bindings array closed: read what is left of it; `]` goes to the skeleton.
            this.#readBindings(chunk.slice(from, i), lastEnd < 0 ? -1 : lastEnd - from, true);
            this.#inBindings = false;
            from = i;
            lastEnd = -1;
          }
        }
      }
    }
    if (this.#inBindings) {
      this.#readBindings(chunk.slice(from), lastEnd < 0 ? -1 : lastEnd - from, false);
    } else {
      this.#skeleton.push(chunk.slice(from));
      if (this.#inString) this.#stringCarry += chunk.slice(stringStart);
    }
  }

  /**
   * The index of the quote that ends the string going on at `start` of
   * `chunk`, or -1 when the string goes past the chunk (then `#escaped` says
   * whether the chunk ended inside an escape). A quote ends the string when an
   * even number of backslashes stands before it.
   */
  #stringEnd(chunk: string, start: number): number {
    // A backslash that ended the last chunk escapes this chunk's first character.
    const first = this.#escaped ? start + 1 : start;
    if (first > chunk.length) return -1;
    this.#escaped = false;
    for (let at = first;;) {
      const quote = chunk.indexOf('"', at);
      const end = quote < 0 ? chunk.length : quote;
      let backslashes = 0;
      while (
        end - backslashes - 1 >= first && chunk.charCodeAt(end - backslashes - 1) === BACKSLASH
      ) {
        backslashes++;
      }
      if (quote < 0) {
        this.#escaped = backslashes % 2 === 1;
        return -1;
      }
      if (backslashes % 2 === 0) return quote;
      at = quote + 1;
    }
  }

  /** A string that began in an earlier chunk ends at `end`. */
  #closeString(chunk: string, start: number, end: number): void {
    this.#inString = false;
    if (!this.#inBindings) {
      this.#lastString = this.#stringCarry + chunk.slice(start, end);
      this.#stringCarry = "";
    }
  }

  /**
   * Reads the complete bindings in `region` (up to `complete`, -1 for none),
   * after what earlier chunks left; keeps the rest for the next chunk.
   */
  #readBindings(region: string, complete: number, closing: boolean): void {
    if (complete >= 0) {
      const text = this.#carry + region.slice(0, complete);
      const first = text.indexOf("{");
      const separator = text.slice(0, first).trim();
      if (first < 0 || separator !== (this.#batches === 0 ? "" : ",")) {
        throw malformed("results.bindings holds something other than binding objects");
      }
      let bindings: Binding[];
      try {
        bindings = JSON.parse(`[${text.slice(first)}]`);
      } catch (error) {
        throw malformed("the body is not JSON", error);
      }
      this.#batches++;
      for (const binding of bindings) this.#bind(binding);
      this.#carry = region.slice(complete);
    } else {
      this.#carry += region;
    }
    if (closing && this.#carry.trim() !== "") {
      throw malformed("results.bindings holds something other than binding objects");
    }
  }

  #bind(binding: Binding): void {
    const rows = this.#rows;
    const row = rows.nextRow();
    for (const name in binding) {
      const term = binding[name];
      if (term === undefined || term === null) continue;
      const column = rows.column(name);
      const type = term.type;
      // `typed-literal` is SPARQL 1.0's JSON form, which Virtuoso still sends.
      if (type === "literal" || type === "typed-literal") {
        const lang = term["xml:lang"];
        rows.set(
          column,
          row,
          LITERAL,
          term.value,
          lang ? undefined : term.datatype,
          lang || undefined,
        );
      } else if (type === "uri" || type === "bnode") {
        const value = term.value;
        if (value.startsWith(VIRTUOSO_BLANK)) {
          rows.set(column, row, BNODE, value.slice(VIRTUOSO_BLANK.length));
        } else rows.set(column, row, type === "uri" ? IRI : BNODE, value);
      } else if (type === "triple") {
        rows.set(column, row, TRIPLE, JSON.stringify(term.value));
      } else {
        throw malformed(`unknown term type ${JSON.stringify(type)}`);
      }
    }
  }

  finish(): ResultColumns | boolean {
    if (this.#inString || this.#stack.length > 0) {
      throw malformed("the body ends before the document does");
    }
    let doc: {
      head?: { vars?: unknown };
      boolean?: unknown;
      results?: { bindings?: unknown };
    };
    try {
      doc = JSON.parse(this.#skeleton.join(""));
    } catch (error) {
      throw malformed("the body is not JSON", error);
    }
    if (typeof doc?.boolean === "boolean") return doc.boolean;
    const vars = doc?.head?.vars;
    const bindings = doc?.results?.bindings;
    if (!Array.isArray(vars) || !Array.isArray(bindings)) {
      throw malformed("no head.vars or results.bindings");
    }
    // Bindings the scanner did not take (keys written with escapes) are read here.
    for (const binding of bindings as Binding[]) this.#bind(binding);
    return this.#rows.finish(vars.map(String));
  }
}
