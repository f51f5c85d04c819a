/**
 * A SELECT of the archive's endpoint read past its result cap, paged by
 * lib/sparql (see its `queryPages`).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { PagedReadOptions } from "../paging/types.ts";
import type { ArchiveContext } from "./_context.ts";
import { type PagesOptions, queryAll, queryPages } from "../sparql/query_pages.ts";
import { archiveTarget, type SparqlOptions } from "./sparql.ts";

/** Options of {@linkcode sparqlPages} and {@linkcode sparqlAll}. */
export interface SparqlAllOptions extends SparqlOptions, PagesOptions, PagedReadOptions {}

/**
 * Pages a SELECT, one table per page (see {@linkcode Archive.sparqlPages}).
 *
 * @param context The archive's shared state.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of `sparql`.
 * @returns The pages as typed tables.
 *
 * @example Every title, past a 10,000-row cap
 * ```ts
 * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
 * import { Archive } from "./archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const query = "SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }";
 * for await (const page of archive.sparqlPages(query)) {
 *   console.log(page.numRows());
 * }
 * ```
 */
export function sparqlPages(
  context: ArchiveContext,
  query: string,
  options: SparqlAllOptions = {},
): AsyncGenerator<ColumnTable> {
  const { db, service, ...rest } = options;
  return queryPages(archiveTarget(context, { db, service }), query, rest);
}

/**
 * Reads every row of a SELECT into one table (see {@linkcode Archive.sparqlAll}).
 *
 * @param context The archive's shared state.
 * @param query A SELECT query.
 * @param options Page size, the COUNT check, caps, signal, and the options of `sparql`.
 * @returns One table of every row.
 *
 * @example Every name in the archive
 * ```ts
 * import { startArchiveSandbox } from "../sandbox/archive/mod.ts";
 * import { Archive } from "./archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const names = await archive.sparqlAll("SELECT ?s ?name WHERE { ?s <http://schema.org/name> ?name }");
 * console.log(names.numRows());
 * ```
 */
export function sparqlAll(
  context: ArchiveContext,
  query: string,
  options: SparqlAllOptions = {},
): Promise<ColumnTable> {
  const { db, service, ...rest } = options;
  return queryAll(archiveTarget(context, { db, service }), query, rest);
}
