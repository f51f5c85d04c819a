/**
 * The archive's linked data and SPARQL as free functions of the client
 * (viem's actions): `sparql(archive, query, options)`. `Archive`'s methods
 * of the same names call these; each loads the code that does the work on
 * its first call.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { StrictOption } from "../../http/unknown_shape.ts";
import { lazyPages } from "../../paging/lazy_pages.ts";
import { type ArchiveHandle, archivePages, archiveTable, contextOf } from "../_archive_handle.ts";
import { dataUri as dataUriOf } from "../_data_uri.ts";
import { checkCall } from "../_option_rules.ts";
import type {
  JsonLdFormat,
  LinkedDataAtOptions,
  LinkedDataFormat,
  TurtleFormat,
} from "../linked_data.ts";
import type { RebuildGraphOptions } from "../rebuild_graph.ts";
import type { SparqlOptions, SparqlResult } from "../sparql.ts";
import type { SparqlAllOptions } from "../sparql_all.ts";
import type { JsonLdDocument } from "../types.ts";

/** Options of {@linkcode linkedDataTable}: the serialisation read, and `strict`. */
export interface LinkedDataTableOptions extends StrictOption {
  /** The serialisation to read; default `jsonld`. */
  format?: LinkedDataFormat;
}

/**
 * The JSON-LD of an authority entity, as {@linkcode Archive.entityLinkedData} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param slug The entity's slug.
 * @returns The JSON-LD document.
 * @example A place as JSON-LD
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const doc = await entityLinkedData(archive, "tokyo");
 * console.log(Array.isArray(doc) ? doc.length : Object.keys(doc));
 * ```
 */
export async function entityLinkedData(
  archive: ArchiveHandle,
  slug: string,
): Promise<JsonLdDocument> {
  return await (await import("../linked_data.ts")).entityLinkedData(contextOf(archive), slug);
}

/**
 * A resource's linked data, as {@linkcode Archive.linkedData} does: JSON-LD parsed, Turtle as text.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's id or slug.
 * @param options `format`: `jsonld` (default), `rico`, `ttl` or `rico-ttl`.
 * @returns The document, or the Turtle text.
 * @example A letter as Turtle
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const [first] = (await archive.resources()).array("slug") as string[];
 * const turtle = await linkedData(archive, first, { format: "ttl" });
 * console.log(turtle.length > 0);
 * ```
 */
export function linkedData(
  archive: ArchiveHandle,
  id: string,
  options?: { format?: JsonLdFormat },
): Promise<JsonLdDocument>;
/** As above, for a Turtle serialisation: the text. */
export function linkedData(
  archive: ArchiveHandle,
  id: string,
  options: { format: TurtleFormat },
): Promise<string>;
/** As above, for a format known only at run time. */
export function linkedData(
  archive: ArchiveHandle,
  id: string,
  options?: { format?: LinkedDataFormat },
): Promise<JsonLdDocument | string>;
export async function linkedData(
  archive: ArchiveHandle,
  id: string,
  { format = "jsonld" }: { format?: LinkedDataFormat } = {},
): Promise<JsonLdDocument | string> {
  return await (await import("../linked_data.ts")).linkedData(contextOf(archive), id, format);
}

/**
 * The URI that names a resource in the graph, as {@linkcode Archive.dataUri} gives it.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's slug.
 * @returns The URI; nothing is sent.
 * @example A resource's URI
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * console.log(dataUri(archive, "letter-0001"));
 * ```
 */
export function dataUri(archive: ArchiveHandle, id: string): string {
  return dataUriOf(contextOf(archive), id);
}

/**
 * The linked data at a URI or path of the platform, as {@linkcode Archive.linkedDataAt} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param target A data URI, a URL of the platform, or a slug.
 * @param options `format` and `signal`.
 * @returns The document, or the Turtle text.
 * @example From a change list's location
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const [loc] = (await archive.changeList()).array("loc") as string[];
 * const doc = await linkedDataAt(archive, loc);
 * console.log(Array.isArray(doc) ? doc.length : Object.keys(doc));
 * ```
 */
export function linkedDataAt(
  archive: ArchiveHandle,
  target: string,
  options?: { format?: "jsonld"; signal?: AbortSignal },
): Promise<JsonLdDocument>;
/** As above, as Turtle text. */
export function linkedDataAt(
  archive: ArchiveHandle,
  target: string,
  options: { format: "ttl"; signal?: AbortSignal },
): Promise<string>;
export async function linkedDataAt(
  archive: ArchiveHandle,
  target: string,
  options: LinkedDataAtOptions = {},
): Promise<JsonLdDocument | string> {
  checkCall("Archive.linkedDataAt", options);
  return await (await import("../linked_data.ts")).linkedDataAt(
    contextOf(archive),
    target,
    options,
  );
}

/**
 * Rebuilds the database's SPARQL graph, as {@linkcode Archive.rebuildGraph} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param options `signal`.
 * @returns The platform's answer.
 * @example After a write
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * console.log(await rebuildGraph(archive));
 * ```
 */
export async function rebuildGraph(
  archive: ArchiveHandle,
  options: RebuildGraphOptions = {},
): Promise<Record<string, unknown>> {
  checkCall("Archive.rebuildGraph", options);
  return await (await import("../rebuild_graph.ts")).rebuildGraph(contextOf(archive), options);
}

/**
 * A resource's linked data as a table of triples, as {@linkcode Archive.linkedDataTable} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's id or slug.
 * @param options `format` (default `jsonld`) and `strict`.
 * @returns The triples table.
 * @example A letter's triples
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const [first] = (await archive.resources()).array("slug") as string[];
 * const triples = await linkedDataTable(archive, first, { format: "ttl" });
 * console.log(triples.numRows() > 0);
 * ```
 */
export async function linkedDataTable(
  archive: ArchiveHandle,
  id: string,
  options: LinkedDataTableOptions = {},
): Promise<ColumnTable> {
  const { format = "jsonld", ...strict } = options;
  checkCall("Archive.linkedDataTable", strict);
  return await archiveTable(
    archive,
    { operation: "linkedDataTable", params: { id, format, ...strict } },
    async (context) =>
      (await import("../linked_data_table.ts")).linkedDataTable(context, id, format, strict),
  );
}

/**
 * One SPARQL query, as {@linkcode Archive.sparql} does: a table, a boolean or a graph.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param query The SPARQL query.
 * @param options `method`, `accept`, `graph` and the rest of `SparqlOptions`.
 * @returns The result.
 * @example Names
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const rows = await sparql(archive, "SELECT ?s ?title WHERE { ?s <http://schema.org/name> ?title }");
 * console.log(rows.numRows());
 * ```
 */
export async function sparql<T extends SparqlResult = ColumnTable>(
  archive: ArchiveHandle,
  query: string,
  options: SparqlOptions = {},
): Promise<T> {
  checkCall("Archive.sparql", options);
  return await archiveTable(
    archive,
    { operation: "sparql", params: { query, ...options } },
    async (context) =>
      (await import("../sparql.ts")).runSparql(context, query, options) as Promise<T>,
    (result) => typeof result === "boolean" ? [] : [result as ColumnTable],
  );
}

/**
 * Every row of a SELECT, page by page, as {@linkcode Archive.sparqlAll} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param query The SELECT query.
 * @param options Page size and caps.
 * @returns One table of every row.
 * @example Every name
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const names = await sparqlAll(archive, "SELECT ?s ?name WHERE { ?s <http://schema.org/name> ?name }");
 * console.log(names.numRows());
 * ```
 */
export async function sparqlAll(
  archive: ArchiveHandle,
  query: string,
  options: SparqlAllOptions = {},
): Promise<ColumnTable> {
  checkCall("Archive.sparqlAll", options);
  return await archiveTable(
    archive,
    { operation: "sparqlAll", params: { query, ...options } },
    async (context) => (await import("../sparql_all.ts")).sparqlAll(context, query, options),
  );
}

/**
 * The rows of a SELECT one page at a time, as {@linkcode Archive.sparqlPages} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param query The SELECT query.
 * @param options Page size and caps.
 * @returns A generator of one table per page.
 * @example Pages of names
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const query = "SELECT ?s ?name WHERE { ?s <http://schema.org/name> ?name }";
 * for await (const page of sparqlPages(archive, query)) console.log(page.numRows());
 * ```
 */
export function sparqlPages(
  archive: ArchiveHandle,
  query: string,
  options: SparqlAllOptions = {},
): AsyncGenerator<ColumnTable> {
  checkCall("Archive.sparqlPages", options);
  const context = contextOf(archive);
  return archivePages(
    archive,
    { operation: "sparqlPages", params: { query, ...options } },
    lazyPages(async () => (await import("../sparql_all.ts")).sparqlPages(context, query, options)),
  );
}
