/**
 * Row type of the expressions table, for typed row access (`rows(table, EXPRESSION_COLUMNS)`).
 *
 * @module
 */

/**
 * One row of an expressions table (`search`, `searchAll`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface ExpressionRow {
  /** Search-index document id */
  id: string | null;
  /** Work identifier in the digital collection */
  pid: string | null;
  /** Work title */
  title: string | null;
  /** The extracted phrase */
  surface: string | null;
  /** Surrounding text */
  context: string | null;
  /** Emotion category */
  emotion: string | null;
  /** Body part */
  bodyPart: string | null;
  /** positive, negative, neutral or ambiguous */
  valence: string | null;
  /** low, medium or high */
  intensity: string | null;
  /** Person the expression belongs to */
  character: string | null;
  /** Frame numbers in the original */
  pages: unknown[] | null;
  /** Author (null when absent) */
  author: string | null;
  /** Year of composition (null when absent) */
  year: number | null;
  /** Genre (null when absent) */
  genre: string | null;
}
