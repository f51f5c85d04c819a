/**
 * SPARQL for any endpoint: {@linkcode SparqlEndpoint} sends queries and
 * reads every row of a SELECT past the server's cap into typed tables;
 * {@linkcode sparql} builds queries with escaped values.
 *
 * @example A plain endpoint
 * ```ts
 * import { SparqlEndpoint } from "@tidepool/tidepool/sparql";
 * import { startArchiveSandbox } from "@tidepool/tidepool/sandbox/archive";
 * await using sandbox = await startArchiveSandbox();
 * const endpoint = new SparqlEndpoint(`${sandbox.url}/api/shinano/dl/letters/sparql`, { progress: false });
 * const rows = await endpoint.all("SELECT ?s ?o WHERE { ?s <http://schema.org/name> ?o }");
 * console.log(rows.numRows());
 * ```
 *
 * @module
 */

export { SparqlEndpoint, type SparqlEndpointOptions } from "./sparql_endpoint.ts";
export type {
  CompanionOptions,
  ResultFormat,
  SparqlQueryOptions,
  SparqlResult,
} from "./run_query.ts";
export type { PagesOptions } from "./query_pages.ts";
export type { PagedReadOptions } from "../paging/types.ts";
export type { StrictOption } from "../http/unknown_shape.ts";
export { type SparqlFault, SparqlServerError } from "./_server_error.ts";
export { SparqlSyntaxError } from "./sparql_syntax_error.ts";
export { sparql, type SparqlTag } from "./sparql_tag.ts";
export type { SparqlTerm, SparqlValue } from "./_rdf_term.ts";
