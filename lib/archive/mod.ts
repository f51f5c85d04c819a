/**
 * The archive platform: search with facets, resources, authority entities,
 * linked data (JSON-LD, RiC-O, Turtle) and SPARQL into Arquero tables, and
 * IIIF image URLs.
 *
 * @module
 */

export { Archive, type ArchiveOptions } from "./archive.ts";
export type { AuthMode, MovedPath } from "./_context.ts";
export { ConflictError, PayloadTooLargeError, QuotaError } from "./errors.ts";
export { DATABASE_SCHEMA, type DatabasesParameters, type RawDatabase } from "./databases.ts";
export { FACET_SCHEMA, type SearchParameters, type SearchResult } from "./search.ts";
export type { SearchAllParameters } from "./search_all.ts";
export type { ResourcesParameters } from "./resources.ts";
export type { PagedReadOptions } from "../paging/types.ts";
export { RESOURCE_SCHEMA } from "./_resource_table.ts";
export { type Triple, TRIPLE_SCHEMA } from "../sparql/_triples.ts";
export type {
  JsonLdFormat,
  LinkedDataAtOptions,
  LinkedDataFormat,
  TurtleFormat,
} from "./linked_data.ts";
export type { RebuildGraphOptions } from "./rebuild_graph.ts";
export type { CompanionOptions, ResultFormat, SparqlOptions, SparqlResult } from "./sparql.ts";
export type { SparqlAllOptions } from "./sparql_all.ts";
export { readSparqlResults, type ReadSparqlResultsOptions } from "./read_sparql_results.ts";
export { SparqlSyntaxError } from "../sparql/sparql_syntax_error.ts";
export { sparql, type SparqlTag } from "../sparql/sparql_tag.ts";
export type { SparqlTerm, SparqlValue } from "../sparql/_rdf_term.ts";
export type { IiifImageOptions, IiifInfo } from "./iiif.ts";
export type { IiifImage, IiifImageFetchOptions } from "./iiif_image.ts";
export type {
  ArchiveEntity,
  ArchiveResource,
  JsonLdDocument,
  MetadataValue,
  RawResource,
} from "./types.ts";
export { OaiPmh } from "./oai/mod.ts";
export { ResourceSync } from "./resourcesync/mod.ts";
export type { IssuedKey } from "./issue_key.ts";
export type { DatabaseRecord } from "./create_database.ts";
export type { UpdateSettingsResult } from "./update_settings.ts";
export type { CreateResourceInput } from "./create_resource.ts";
export type { CustomDomain, DnsRecord } from "./domains.ts";
export type { ImportResult } from "./import_csv.ts";
export type { UploadedAsset, UploadOptions } from "./upload.ts";
export type { CreateEntityInput } from "./create_entity.ts";
export type { DatabaseRow, HarvestRow, ResourceRow, TripleRow } from "./rows.ts";
