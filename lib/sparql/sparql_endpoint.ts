/**
 * A client of any SPARQL 1.1 endpoint (Virtuoso, Fuseki, GraphDB, Wikidata,
 * an archive's database): queries into typed tables, every row of a SELECT
 * past the server's cap, with the shared client's retries, pacing,
 * record/replay cache and progress.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../http/options.ts";
import { checkOptions, type OptionRules } from "../options/check_options.ts";
import { SPARQL_PAGES_RULES, SPARQL_QUERY_RULES } from "./option_rules.ts";
import { lazyPages } from "../paging/lazy_pages.ts";
import { pagesWithProvenance, withProvenance } from "../table/with_provenance.ts";
import type { SparqlQueryOptions, SparqlResult, SparqlTarget } from "./run_query.ts";
import type { PagesOptions } from "./query_pages.ts";

/** Options of `new SparqlEndpoint`: the shared client options. */
export type SparqlEndpointOptions = ClientOptions;

const PAGES_RULES: OptionRules = { ...SPARQL_QUERY_RULES, ...SPARQL_PAGES_RULES };

// The senders load on first use, so that importing tidepool stays quick.
const queryCode = () => import("./run_query.ts");
const pagesCode = () => import("./query_pages.ts");

/**
 * One SPARQL endpoint. Queries are parsed first (a syntax error is thrown
 * locally with its line and column; a prefix the query does not declare is
 * declared from the well-known ones, or sent unchecked with a warning), then
 * sent as an idempotent GET, or POST when long. Errors the server names by
 * code (a compile error, a timeout) are sent once, never retried.
 *
 * @example Names from any endpoint
 * ```ts
 * // The archive sandbox serves a read-only SPARQL endpoint.
 * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * const endpoint = new SparqlEndpoint(`${sandbox.url}/api/shinano/dl/letters/sparql`, { progress: false });
 * const names = await endpoint.all("SELECT ?s ?name WHERE { ?s <http://schema.org/name> ?name }");
 * console.log(names.numRows());
 * ```
 */
export class SparqlEndpoint {
  /** The endpoint's URL. */
  readonly url: string;
  readonly #target: SparqlTarget;

  /**
   * Creates a client of one endpoint.
   *
   * @param url The endpoint's URL (such as `https://dbpedia.org/sparql`).
   * @param options The shared client options: fetch, timeoutMs, retry, minIntervalMs,
   *   concurrency, cache, progress, signal.
   */
  constructor(url: string, options: SparqlEndpointOptions = {}) {
    options = checkOptions("new SparqlEndpoint", options, CLIENT_OPTION_RULES);
    const http = new HttpClient(url, options);
    this.url = http.baseUrl;
    this.#target = {
      http,
      endpoint: () => Promise.resolve(http.baseUrl),
      send: (request) => http.request(request),
      sendStreamed: (request) => http.stream(request),
    };
  }

  /**
   * Sends one query. A SELECT answer that fills the server's cap
   * (`X-SPARQL-MaxRows`) is kept with a warning: read every row with {@linkcode all}.
   *
   * @param query SELECT, ASK, CONSTRUCT or DESCRIBE.
   * @param options Format, method, signal and the companion columns (`lang`, `datatype`).
   * @returns SELECT: a typed table; ASK: a boolean; CONSTRUCT and DESCRIBE: a triples table.
   *
   * @example Whether a graph has a name
   * ```ts
   * // The archive sandbox serves a read-only SPARQL endpoint.
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const endpoint = new SparqlEndpoint(`${sandbox.url}/api/shinano/dl/letters/sparql`, { progress: false });
   * const any = await endpoint.query<boolean>("ASK { ?s <http://schema.org/name> ?o }");
   * console.log(any);
   * ```
   */
  async query<T extends SparqlResult = ColumnTable>(
    query: string,
    options: SparqlQueryOptions = {},
  ): Promise<T> {
    checkOptions("SparqlEndpoint.query", options, SPARQL_QUERY_RULES);
    return await withProvenance(
      this.#provenance("query", { query, ...options }),
      async () =>
        (await queryCode()).runQuery(
          this.#target,
          query,
          options,
          "SparqlEndpoint.all()",
        ) as Promise<
          T
        >,
      (result) => typeof result === "boolean" ? [] : [result as ColumnTable],
    );
  }

  /**
   * Every row of a SELECT in one table, paged past the server's cap: the
   * ordered query is wrapped in a subquery and windowed outside it (so
   * Virtuoso's sort bound is never reached), checked against a COUNT.
   *
   * @param query A SELECT query.
   * @param options Page size, the COUNT check, caps, signal and the options of {@linkcode query}.
   * @returns One table of every row.
   *
   * @example Every label
   * ```ts
   * // The archive sandbox serves a read-only SPARQL endpoint.
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const endpoint = new SparqlEndpoint(`${sandbox.url}/api/shinano/dl/letters/sparql`, { progress: false });
   * const labels = await endpoint.all(
   *   "SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label }",
   * );
   * console.log(labels.numRows());
   * ```
   */
  async all(query: string, options: PagesOptions = {}): Promise<ColumnTable> {
    checkOptions("SparqlEndpoint.all", options, PAGES_RULES);
    return await withProvenance(
      this.#provenance("all", { query, ...options }),
      async () =>
        (await pagesCode()).queryAll(this.#target, query, options, "SparqlEndpoint.all()"),
    );
  }

  /**
   * The pages of a SELECT as {@linkcode all} reads them, one table each.
   *
   * @param query A SELECT query.
   * @param options As for {@linkcode all}.
   * @returns The pages, each with its own provenance.
   *
   * @example Page by page
   * ```ts
   * // The archive sandbox serves a read-only SPARQL endpoint.
   * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
   * await using sandbox = await startArchiveSandbox();
   * const endpoint = new SparqlEndpoint(`${sandbox.url}/api/shinano/dl/letters/sparql`, { progress: false });
   * for await (const page of endpoint.pages("SELECT ?s WHERE { ?s ?p ?o }")) console.log(page.numRows());
   * ```
   */
  pages(query: string, options: PagesOptions = {}): AsyncGenerator<ColumnTable> {
    checkOptions("SparqlEndpoint.pages", options, PAGES_RULES);
    return pagesWithProvenance(
      this.#provenance("pages", { query, ...options }),
      lazyPages(async () =>
        (await pagesCode()).queryPages(this.#target, query, options, "SparqlEndpoint.pages()")
      ),
    );
  }

  #provenance(operation: string, params: Record<string, unknown>) {
    return { service: this.url, operation: `SparqlEndpoint.${operation}`, params };
  }
}
