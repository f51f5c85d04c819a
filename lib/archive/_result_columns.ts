/**
 * SELECT results held column by column: for each variable, the term kind,
 * lexical value, datatype and language of every row in parallel arrays. The
 * readers write into this shape directly, so no object is made per term, and
 * the typed table is made from it column by column.
 *
 * @module
 */

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

/** The terms of one variable, one entry per row. */
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
