/**
 * The row type of a triples table, checked against its schema by `deno check`.
 *
 * @module
 */

/**
 * One row of a triples table (`linkedDataTable`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface TripleRow {
  /** subject IRI or _:blank */
  subject: string | null;
  /** predicate IRI */
  predicate: string | null;
  /** object IRI, _:blank, or literal text */
  object: string | null;
  /** iri, literal or blank */
  objectType: string | null;
  /** literal datatype IRI, null for IRIs and blanks */
  datatype: string | null;
  /** literal language tag, or null */
  lang: string | null;
}
