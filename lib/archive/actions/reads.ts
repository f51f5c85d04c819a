/**
 * The archive's reads of its catalogue and records as free functions of the
 * client (viem's actions): `search(archive, parameters)`. `Archive`'s
 * methods of the same names call these; each loads the code that does the
 * work on its first call, so importing tidepool stays quick.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { lazyPages } from "../../paging/lazy_pages.ts";
import { type ArchiveHandle, archivePages, archiveTable, contextOf } from "../_archive_handle.ts";
import { checkCall } from "../_option_rules.ts";
import type { DatabasesParameters } from "../databases.ts";
import type { ResourcesParameters } from "../resources.ts";
import type { SearchParameters, SearchResult } from "../search.ts";
import type { SearchAllParameters } from "../search_all.ts";
import type { ArchiveEntity, ArchiveResource } from "../types.ts";

/**
 * Lists databases from the accounts catalogue, as {@linkcode Archive.databases} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param parameters `scope`: `public` (default), `mine` or `all`, and paging options.
 * @returns One row per database.
 * @example Every public database
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const dbs = await databases(archive);
 * console.log(dbs.numRows());
 * ```
 */
export async function databases(
  archive: ArchiveHandle,
  parameters: DatabasesParameters = {},
): Promise<ColumnTable> {
  checkCall("Archive.databases", parameters);
  return await archiveTable(
    archive,
    { operation: "databases", params: { ...parameters } },
    async (context) => (await import("../databases.ts")).databases(context, parameters),
  );
}

/**
 * One page of search hits with facets, as {@linkcode Archive.search} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param parameters The query `q`, filters, facets and the page.
 * @returns The hits, the facet tables and the total.
 * @example A search with a facet
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const { hits, total } = await search(archive, { q: "Tokyo", facet: "dcterms:creator" });
 * console.log(total, hits.numRows());
 * ```
 */
export async function search(
  archive: ArchiveHandle,
  parameters: SearchParameters = {},
): Promise<SearchResult> {
  checkCall("Archive.search", parameters);
  return await archiveTable(
    archive,
    { operation: "search", params: { ...parameters } },
    async (context) => (await import("../search.ts")).search(context, parameters),
    (result) => [result.hits, ...result.facets.values()],
  );
}

/**
 * Every hit of a search, every page read, as {@linkcode Archive.searchAll} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param parameters The query and filters, and paging caps.
 * @returns One table of every hit.
 * @example All letters
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const letters = await searchAll(archive, { filter: { "dcterms:type": "letter" } });
 * console.log(letters.numRows());
 * ```
 */
export async function searchAll(
  archive: ArchiveHandle,
  parameters: SearchAllParameters = {},
): Promise<ColumnTable> {
  checkCall("Archive.searchAll", parameters);
  return await archiveTable(
    archive,
    { operation: "searchAll", params: { ...parameters } },
    async (context) => (await import("../search_all.ts")).searchAll(context, parameters),
  );
}

/**
 * The hits of a search page by page, as {@linkcode Archive.searchPages} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param parameters The query and filters, and paging caps.
 * @returns A generator of one table per page.
 * @example Pages of hits
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * for await (const page of searchPages(archive, { q: "Tokyo" })) console.log(page.numRows());
 * ```
 */
export function searchPages(
  archive: ArchiveHandle,
  parameters: SearchAllParameters = {},
): AsyncGenerator<ColumnTable> {
  checkCall("Archive.searchPages", parameters);
  const context = contextOf(archive);
  const pages = lazyPages(async () =>
    (await import("../search_all.ts")).searchPages(context, parameters)
  );
  return archivePages(archive, { operation: "searchPages", params: { ...parameters } }, pages);
}

/**
 * Every resource of the database, as {@linkcode Archive.resources} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param parameters `type`, `parent` and paging caps.
 * @returns One row per resource.
 * @example The collections
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const collections = await resources(archive, { type: "collection" });
 * console.log(collections.numRows());
 * ```
 */
export async function resources(
  archive: ArchiveHandle,
  parameters: ResourcesParameters = {},
): Promise<ColumnTable> {
  checkCall("Archive.resources", parameters);
  return await archiveTable(
    archive,
    { operation: "resources", params: { ...parameters } },
    async (context) => (await import("../resources.ts")).resources(context, parameters),
  );
}

/**
 * One resource by id or slug, as {@linkcode Archive.resource} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param id The resource's id or slug.
 * @returns The resource.
 * @example The first letter
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const [first] = (await resources(archive)).array("slug") as string[];
 * console.log((await resource(archive, first)).title);
 * ```
 */
export async function resource(archive: ArchiveHandle, id: string): Promise<ArchiveResource> {
  return await (await import("../resource.ts")).resource(contextOf(archive), id);
}

/**
 * One authority entity by slug, as {@linkcode Archive.entity} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param slug The entity's slug.
 * @returns The entity.
 * @example A place
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const tokyo = await entity(archive, "tokyo");
 * console.log(tokyo.prefLabel.ja);
 * ```
 */
export async function entity(archive: ArchiveHandle, slug: string): Promise<ArchiveEntity> {
  return await (await import("../entity.ts")).entity(contextOf(archive), slug);
}
