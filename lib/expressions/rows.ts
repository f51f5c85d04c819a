/**
 * Row type of the expressions table, for typed row access (`rows(table, EXPRESSION_COLUMNS)`).
 *
 * @module
 */

import type { RecordRow } from "../table/schema.ts";
import type { Expression } from "./types.ts";

/**
 * One row of an expressions table (`search`, `searchAll`): the fields of an
 * {@linkcode Expression}, one column each, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export type ExpressionRow = RecordRow<Expression>;
