/**
 * The expression search client: expressions, works, stats and analytics as
 * tidy Arquero tables, politely paced and paged.
 *
 * @module
 */

export * from "./expression_search.ts";
export * from "./columns.ts";
export * from "./types.ts";
