/**
 * The options of a SPARQL query and of a paged read, as `checkOptions`
 * checks them at the door of `SparqlEndpoint` and of the archive's calls.
 *
 * @module
 */

import type { OptionRules } from "../options/check_options.ts";
import { PAGED_READ_RULES } from "../paging/types.ts";

/** The options of one query (`SparqlQueryOptions`). */
export const SPARQL_QUERY_RULES: OptionRules = {
  lang: "boolean",
  datatype: "boolean",
  strict: "boolean",
  format: ["json", "xml", "csv", "tsv"],
  method: ["auto", "GET", "POST"],
  signal: "signal",
};

/** The options of a paged read (`PagesOptions`). */
export const SPARQL_PAGES_RULES: OptionRules = {
  ...PAGED_READ_RULES,
  pageSize: "integer",
  count: "boolean",
};
