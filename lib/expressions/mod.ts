/**
 * The expression search client: expressions, works, stats and analytics as
 * tidy Arquero tables, politely paced and paged.
 *
 * @module
 */

export * from "./expression_search.ts";
export * from "./columns.ts";
export * from "./types.ts";
export {
  BODY_PARTS,
  type BodyPart,
  type Emotion,
  EMOTION_GLOSSES,
  EMOTIONS,
} from "./vocabulary.ts";
export type { ExpressionRow } from "./rows.ts";
export { kwic, KWIC_COLUMNS, type KwicOptions, type KwicRow } from "./kwic.ts";
