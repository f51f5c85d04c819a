/**
 * The archive's capabilities as free functions of an `Archive` client, in
 * viem's action style: the client first, then the call's arguments. Each is
 * what the `Archive` method of the same name does; the methods call these.
 *
 * @example Search, as a function of the client
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * import { search } from "./mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const { total } = await search(archive, { q: "Tokyo" });
 * console.log(total);
 * ```
 *
 * @module
 */

export type { ArchiveHandle } from "../_archive_handle.ts";
export * from "./images.ts";
export * from "./linked_data.ts";
export * from "./reads.ts";
export * from "./writes.ts";
export type {
  ArchiveEntity,
  ArchiveResource,
  CreateEntityInput,
  CreateResourceInput,
  CustomDomain,
  DatabaseRecord,
  DatabasesParameters,
  DnsRecord,
  IiifImage,
  IiifImageFetchOptions,
  IiifImageOptions,
  IiifInfo,
  ImportResult,
  IssuedKey,
  JsonLdDocument,
  JsonLdFormat,
  LinkedDataFormat,
  MetadataValue,
  MovedPath,
  PagedReadOptions,
  RebuildGraphOptions,
  ResourcesParameters,
  SearchAllParameters,
  SearchParameters,
  SearchResult,
  SparqlAllOptions,
  SparqlOptions,
  SparqlResult,
  TurtleFormat,
  UpdateSettingsResult,
  UploadedAsset,
  UploadOptions,
} from "../mod.ts";
export type { PollOptions } from "../../http/poll_until.ts";
export type { StrictOption } from "../../http/unknown_shape.ts";
export type { PagesOptions } from "../../sparql/query_pages.ts";
export type { ResultFormat } from "../../sparql/_sparql_results.ts";
export type { CompanionOptions } from "../../sparql/_sparql_table.ts";
export type { SparqlQueryOptions } from "../../sparql/run_query.ts";
