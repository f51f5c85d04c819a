/**
 * The fifteen elements of simple Dublin Core (`oai_dc`), in the order of the
 * DCMI element set: the fixed columns of an `oai_dc` harvest table.
 *
 * @module
 */

/** One of the fifteen simple Dublin Core elements. */
export type DcElement =
  | "title"
  | "creator"
  | "subject"
  | "description"
  | "publisher"
  | "contributor"
  | "date"
  | "type"
  | "format"
  | "identifier"
  | "source"
  | "language"
  | "relation"
  | "coverage"
  | "rights";

/**
 * The fifteen elements, in order.
 *
 * @example The columns of an oai_dc table
 * ```ts
 * console.log(DC_ELEMENTS.length); // 15
 * ```
 */
export const DC_ELEMENTS: readonly DcElement[] = [
  "title",
  "creator",
  "subject",
  "description",
  "publisher",
  "contributor",
  "date",
  "type",
  "format",
  "identifier",
  "source",
  "language",
  "relation",
  "coverage",
  "rights",
];
