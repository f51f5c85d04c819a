/**
 * The fifteen elements of simple Dublin Core (`oai_dc`), in the order of the
 * DCMI element set: the fixed columns of an `oai_dc` harvest table.
 *
 * @example The columns of an oai_dc table
 * ```ts
 * console.log(DC_ELEMENTS.length); // 15
 * ```
 */
export const DC_ELEMENTS: readonly string[] = [
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
