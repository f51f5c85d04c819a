/**
 * The column schemas of every table the expression search client returns,
 * declared once as data. The README's column lists come from here.
 *
 * @module
 */

import { defineSchema, type TableSchema } from "../table/mod.ts";
import type { WireExpression } from "./types.ts";
import type { ExpressionRow } from "./rows.ts";

/** Columns of expression tables (`search` hits, `searchAll`, `byBook`). */
export const EXPRESSION_COLUMNS: TableSchema<WireExpression, ExpressionRow> = defineSchema([
  { name: "id", type: "string", description: "Search-index document id" },
  { name: "pid", type: "string", description: "Work identifier in the digital collection" },
  { name: "title", type: "string", description: "Work title" },
  { name: "surface", type: "string", description: "The extracted phrase" },
  { name: "context", type: "string", description: "Surrounding text" },
  { name: "emotion", type: "string", description: "Emotion category" },
  { name: "bodyPart", type: "string", path: "body_part", description: "Body part" },
  { name: "valence", type: "string", description: "positive, negative, neutral or ambiguous" },
  { name: "intensity", type: "string", description: "low, medium or high" },
  { name: "character", type: "string", description: "Person the expression belongs to" },
  { name: "pages", type: "array", description: "Frame numbers in the original" },
  { name: "author", type: "string", description: "Author (null when absent)" },
  { name: "year", type: "integer", description: "Year of composition (null when absent)" },
  { name: "genre", type: "string", description: "Genre (null when absent)" },
]);

/** Columns of facet tables. */
export const FACET_COLUMNS: TableSchema<{ key: unknown; count: unknown }> = defineSchema([
  { name: "key", type: "string", description: "Facet value" },
  { name: "count", type: "integer", description: "Matching expressions" },
]);

/** Columns of the `books()` table. */
export const BOOK_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "pid", type: "string", description: "Work identifier" },
  { name: "title", type: "string", description: "Title" },
  { name: "author", type: "string", description: "Author" },
  { name: "year", type: "integer", description: "Year of composition" },
  { name: "genre", type: "string", description: "Genre" },
  { name: "ndc", type: "string", description: "Nippon Decimal Classification (may be null)" },
  {
    name: "expressionCount",
    type: "integer",
    path: "expression_count",
    description: "Expressions in the work",
  },
]);

/** Columns of `bookEmotions()` and `analytics().bookEmotions`. */
export const BOOK_EMOTION_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "pid", type: "string", description: "Work identifier" },
  { name: "title", type: "string", description: "Title" },
  { name: "emotion", type: "string", description: "Emotion category" },
  { name: "count", type: "integer", description: "Expressions of that category in the work" },
  {
    name: "total",
    type: "integer",
    description:
      "Expressions in the work, as the service counts them (its `total` or `expression_count`)",
  },
]);

/** Columns of `analytics().emotionBodyPart`. */
export const EMOTION_BODY_PART_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "emotion", type: "string", description: "Emotion category" },
  { name: "bodyPart", type: "string", description: "Body part" },
  { name: "count", type: "integer", description: "Expressions with both" },
  {
    name: "total",
    type: "integer",
    description: "Expressions of that emotion, as the service counts them (its per-row `total`)",
  },
]);

/** Columns of emotion counts (`stats().emotions`, `analytics().emotion`). */
export const EMOTION_COUNT_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "emotion", type: "string", description: "Emotion category" },
  { name: "count", type: "integer", description: "Expressions" },
]);

/** Columns of body part counts (`stats().bodyParts`, `analytics().bodyPart`). */
export const BODY_PART_COUNT_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "bodyPart", type: "string", description: "Body part" },
  { name: "count", type: "integer", description: "Expressions" },
]);

/** Columns of valence counts (`stats().valences`, `analytics().valence`). */
export const VALENCE_COUNT_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema([
  { name: "valence", type: "string", description: "Valence" },
  { name: "count", type: "integer", description: "Expressions" },
]);
