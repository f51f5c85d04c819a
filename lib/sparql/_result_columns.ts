/**
 * SELECT results held column by column: for each variable, the term kind,
 * lexical value, datatype and language of every row in parallel arrays. The
 * readers write into this shape directly, so no object is made per term, and
 * the typed table is made from it column by column.
 *
 * @module
 */

import { ProtocolError } from "../errors/errors.ts";

/** What to do about a result document that cannot be read. */
export const MALFORMED_RESULTS_HINT =
  "The endpoint sent a malformed result document; try another format with { format }";

/** The error of a result document of `format` (JSON, XML, CSV, TSV) that cannot be read. */
export function malformedResults(format: string, detail: string, cause?: unknown): ProtocolError {
  return new ProtocolError(`Cannot read the SPARQL ${format} results: ${detail}`, {
    hint: MALFORMED_RESULTS_HINT,
    cause,
  });
}

/**
 * How Virtuoso writes a blank node in its results (`nodeID://b10001`, as a
 * `bnode` or sometimes a `uri`): read as the blank node `_:b10001`.
 */
export const VIRTUOSO_BLANK = "nodeID://";

/** A term kind code; 0 is unbound. */
export const UNBOUND = 0;
/** An IRI. */
export const IRI = 1;
/** A literal. */
export const LITERAL = 2;
/** A blank node. */
export const BNODE = 3;
/** An RDF-star quoted triple (its JSON as the value). */
export const TRIPLE = 4;

/**
 * The terms of one variable, one entry per row (read by index: a list of
 * datatypes or languages no row has may be empty).
 */
export interface TermColumn {
  /** Term kind per row (UNBOUND, IRI, LITERAL, BNODE, TRIPLE). */
  kinds: Uint8Array;
  /** IRI, lexical form or blank node label (without `_:`); undefined where unbound. */
  values: (string | undefined)[];
  /** Datatype IRI of a typed literal. */
  datatypes: (string | undefined)[];
  /** Language tag of a literal. */
  langs: (string | undefined)[];
}

/** A SELECT answer: the variables and one column of terms for each. */
export interface ResultColumns {
  /** The variables, in order. */
  vars: string[];
  /** Rows. */
  length: number;
  /** One column per variable, aligned with `vars`. */
  columns: TermColumn[];
}

/** Columns of `length` unbound rows for the variables. */
export function emptyColumns(vars: string[], length: number): ResultColumns {
  return {
    vars,
    length,
    columns: vars.map(() => ({
      kinds: new Uint8Array(length),
      values: new Array(length),
      datatypes: new Array(length),
      langs: new Array(length),
    })),
  };
}

/**
 * Fills {@linkcode ResultColumns} row by row when the row count is not known
 * ahead, as streaming readers need. Columns are made on first sight of their
 * variable, so a document may bind variables before its head lists them;
 * {@linkcode ColumnsBuilder.finish} keeps the head's variables, in its order.
 */
export class ColumnsBuilder {
  #byName = new Map<string, TermColumn>();
  readonly #names = new NameTable();
  #capacity = 0;
  #rows = 0;

  /** Rows started so far. */
  get rows(): number {
    return this.#rows;
  }

  /** Starts a row and returns its index. */
  nextRow(): number {
    const row = this.#rows++;
    if (row >= this.#capacity) {
      // Doubling keeps the copies of the kind arrays linear in the row count.
      this.#capacity = Math.max(64, this.#capacity * 2);
      for (const column of this.#byName.values()) {
        const kinds = new Uint8Array(this.#capacity);
        kinds.set(column.kinds);
        column.kinds = kinds;
      }
    }
    return row;
  }

  /** The column of a variable, made on first use. */
  column(name: string): TermColumn {
    let column = this.#byName.get(name);
    if (column === undefined) {
      column = { kinds: new Uint8Array(this.#capacity), values: [], datatypes: [], langs: [] };
      this.#byName.set(name, column);
    }
    return column;
  }

  /** Binds a term in `row` of `column`. */
  set(
    column: TermColumn,
    row: number,
    kind: number,
    value: string,
    datatype?: string,
    lang?: string,
  ): void {
    column.kinds[row] = kind;
    put(column.values, row, value);
    if (lang !== undefined) put(column.langs, row, this.#names.intern(lang));
    else if (datatype !== undefined) put(column.datatypes, row, this.#names.intern(datatype));
  }

  /** The columns of `vars`, in that order; variables the head does not list are dropped. */
  finish(vars: string[]): ResultColumns {
    const length = this.#rows;
    const columns = vars.map((name) => {
      const column = this.#byName.get(name);
      if (column === undefined) return emptyColumns([name], length).columns[0];
      column.kinds = column.kinds.subarray(0, length);
      for (const values of [column.values, column.datatypes, column.langs]) {
        // A list never written (the languages of an IRI column) stays empty:
        // reading past its end gives undefined, as padding it row by row would.
        if (values.length > 0) { while (values.length < length) values.push(undefined); }
      }
      return column;
    });
    return { vars, length, columns };
  }
}

/**
 * One string for each datatype IRI and language tag: a parser makes a new
 * string for every literal's, and 100,000 rows of a few typed variables kept
 * hundreds of thousands of copies alive through every collection while the
 * results were read. A fresh copy dies young; the kept one is shared.
 */
export class NameTable {
  readonly #names = new Map<string, string>();

  /** The shared string equal to `name`. */
  intern(name: string): string {
    const known = this.#names.get(name);
    if (known !== undefined) return known;
    // Names are few; a document of distinct ones is not held twice over.
    if (this.#names.size < 4096) this.#names.set(name, name);
    return name;
  }
}

/**
 * Writes `value` at `row`, padding with undefined: writing far past the end
 * of a V8 array (a sparse OPTIONAL column) would turn it into a slow
 * dictionary, while appending keeps it packed.
 */
function put(values: (string | undefined)[], row: number, value: string): void {
  while (values.length < row) values.push(undefined);
  values[row] = value;
}
