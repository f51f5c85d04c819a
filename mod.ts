/**
 * tidepool turns four public web services into Arquero tables and Observable
 * Plot charts: an Ocean Protocol node, the Ocean subgraph, a linked-data
 * archive platform and an emotion-expression search service.
 *
 * This module re-exports the public surface; it holds no logic. Inside the
 * Deno Jupyter kernel it also turns on rich display of tables and errors.
 *
 * @module
 */

import "./lib/notebook/_in_kernel.ts";

export {
  AuthError,
  BotChallengeError,
  CacheMissError,
  HttpError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  ResponseTooLargeError,
  TidepoolError,
  TimeoutError,
  UnknownValueError,
} from "./lib/errors/errors.ts";
export type { CacheMode, CacheOptions } from "./lib/http/cache.ts";
export type { ClientOptions } from "./lib/http/options.ts";
export type {
  HttpClient,
  HttpRequest,
  HttpResponse,
  HttpStream,
  QueryValue,
} from "./lib/http/client.ts";
export type {
  ProgressEvent,
  ProgressOption,
  ProgressSink,
  ProgressTask,
} from "./lib/progress/progress.ts";
export type { RetryOptions } from "./lib/http/retry.ts";
export { PagingCapError, PagingError, type PagingErrorCode } from "./lib/paging/errors.ts";
export type { PagedReadOptions } from "./lib/paging/types.ts";
export { OCEAN_START_BLOCK } from "./lib/subgraph/_staleness.ts";
export { StaleSubgraphError } from "./lib/subgraph/stale_subgraph_error.ts";
export { Subgraph } from "./lib/subgraph/subgraph.ts";
export { subgraphInfo } from "./lib/subgraph/subgraph_info.ts";
export type {
  NftUpdatesOptions,
  OpcRecord,
  OrdersOptions,
  PaginateOptions,
  SubgraphInfo,
  SubgraphMeta,
  SubgraphOptions,
  SubgraphRow,
  TokenRecord,
  TokensOptions,
  WhereFilter,
} from "./lib/subgraph/mod.ts";
export { ASSET_COLUMNS, assetsTable } from "./lib/ocean/assets_table.ts";
export { chainOrders, chainOrderSchema, compareOrders } from "./lib/ocean/order/chain_orders.ts";
export { downloadAsset } from "./lib/ocean/order/download_asset.ts";
export {
  JOB_COLUMNS,
  JOB_RESULT_COLUMNS,
  SAVED_RESULT_COLUMNS,
} from "./lib/ocean/compute/job_columns.ts";
export { JOB_STATUSES, statusLabel } from "./lib/ocean/compute/job_statuses.ts";
export { JobFailedError } from "./lib/ocean/compute/job_failed_error.ts";
export { NFT_STATE_LABELS } from "./lib/ocean/ddo.ts";
export { OceanNode } from "./lib/ocean/ocean_node.ts";
export { orderAsset, SANDBOX_CHAIN_ID } from "./lib/ocean/order/order_asset.ts";
export { orderDatatoken, prepareOrder } from "./lib/ocean/order/order_datatoken.ts";
export { quoteOrder } from "./lib/ocean/order/quote_order.ts";
export { QUOTE_TOTAL_COLUMNS, QUOTE_TRANSACTION_COLUMNS } from "./lib/ocean/order/quote_table.ts";
export { ordersWithAssets } from "./lib/ocean/orders_with_assets.ts";
export { signerFromEnv, signerFromPrivateKey } from "./lib/ocean/signer.ts";
export { signRequest } from "./lib/ocean/sign_request.ts";
export { TAG_COUNT_COLUMNS, tags } from "./lib/ocean/asset_tags.ts";
export type {
  ComputeLogsOptions,
  JobControlOptions,
  OrdersWithAssetsOptions,
  TagCountRow,
} from "./lib/ocean/mod.ts";
export type {
  AccessRule,
  AlgorithmContainer,
  AlgorithmMetadata,
  AssetFilter,
  AssetOrderNode,
  AssetOrderTarget,
  AuthToken,
  ChainHex,
  ChainOrdersOptions,
  ComputeAssetRef,
  ComputeAssetTerms,
  ComputeEnvironment,
  ComputeEscrowQuote,
  ComputeJob,
  ComputeOptions,
  ComputePayment,
  ComputePaymentTerms,
  ComputeQuote,
  ComputeResource,
  ComputeResultFile,
  ComputeResultType,
  CreateAuthTokenParameters,
  DatatokenOrder,
  Ddo,
  DdoDatatoken,
  DdoEvent,
  DdoMetadata,
  DdoNft,
  DdoService,
  DdoState,
  DdoStateKey,
  DecryptParameters,
  DownloadAssetOptions,
  DownloadAssetParameters,
  DownloadAssetReturnType,
  DownloadParameters,
  DownloadResultsOptions,
  DownloadReturnType,
  EncryptInput,
  EncryptOptions,
  EscrowAuthorization,
  EscrowSent,
  EscrowTerms,
  EsStyleQuery,
  EsTermFilter,
  FileInfo,
  FileObject,
  FreeTier,
  Hex,
  IndexedMetadata,
  InitializeComputeParameters,
  InitializeComputeReturnType,
  InitializeParameters,
  InitializeReturnType,
  JobPhase,
  JobsOptions,
  JobStatusInfo,
  MaxPrice,
  NodeInfo,
  OrderAccount,
  OrderAssetOptions,
  OrderAssetParameters,
  OrderDatatokenParameters,
  OrderProviderFee,
  OrderQuote,
  PaidComputeAssetRef,
  PaidPart,
  PaymentPart,
  PlannedPayment,
  PlannedTransaction,
  PreparedOrder,
  ProviderFee,
  QuoteComputeParameters,
  QuotedOrder,
  QuotedToken,
  QuoteOrderOptions,
  QuoteOrderParameters,
  ResourceRequest,
  ResultTextOptions,
  SavedResult,
  SearchAssetsOptions,
  ServiceRef,
  SignedCommand,
  SignedFields,
  Signer,
  StartComputeParameters,
  StartComputeReturnType,
  StartFreeComputeParameters,
  TypesenseHit,
  TypesenseQuery,
  TypesenseResult,
  ValidateDdoOptions,
  ValidateDdoResult,
  WaitForIndexedOptions,
  WaitForJobOptions,
} from "./lib/ocean/mod.ts";
export { BODY_PARTS, EMOTION_GLOSSES, EMOTIONS } from "./lib/expressions/vocabulary.ts";
export { EXPRESSION_SEARCH_PACING, ExpressionSearch } from "./lib/expressions/expression_search.ts";
export { kwic, KWIC_COLUMNS } from "./lib/expressions/kwic.ts";
export type { KwicOptions, KwicRow } from "./lib/expressions/mod.ts";
export type {
  BodyPart,
  Emotion,
  Expression,
  ExpressionAnalytics,
  ExpressionFacets,
  ExpressionSearchOptions,
  ExpressionStats,
  Gender,
  Intensity,
  OneOrMany,
  PagingOptions,
  SearchAllOptions,
  SearchFilters,
  SearchParameters,
  SearchResult,
  SortField,
  SortOrder,
  Valence,
  WireExpression,
} from "./lib/expressions/mod.ts";
export { Archive } from "./lib/archive/archive.ts";
export { ConflictError, PayloadTooLargeError, QuotaError } from "./lib/archive/errors.ts";
export { readSparqlResults } from "./lib/archive/read_sparql_results.ts";
export { sparql } from "./lib/sparql/sparql_tag.ts";
export { SparqlSyntaxError } from "./lib/sparql/sparql_syntax_error.ts";
export { SparqlEndpoint, SparqlServerError } from "./lib/sparql/mod.ts";
export type {
  PagesOptions,
  SparqlEndpointOptions,
  SparqlFault,
  SparqlQueryOptions,
} from "./lib/sparql/mod.ts";
export type {
  ArchiveEntity,
  ArchiveOptions,
  ArchiveResource,
  AuthMode,
  CompanionOptions,
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
  LinkedDataAtOptions,
  LinkedDataFormat,
  MetadataValue,
  MovedPath,
  ReadSparqlResultsOptions,
  RebuildGraphOptions,
  ResourcesParameters,
  ResultFormat,
  SearchAllParameters,
  SparqlAllOptions,
  SparqlOptions,
  SparqlResult,
  SparqlTag,
  SparqlTerm,
  SparqlValue,
  Triple,
  TurtleFormat,
  UpdateSettingsResult,
  UploadedAsset,
  UploadOptions,
} from "./lib/archive/mod.ts";
export type {
  SearchParameters as ArchiveSearchParameters,
  SearchResult as ArchiveSearchResult,
} from "./lib/archive/mod.ts";
export { OaiPmh } from "./lib/archive/oai/oai_pmh.ts";
export type {
  HarvestOptions,
  HarvestPage,
  OaiIdentify,
  OaiPmhOptions,
  OaiRecord,
} from "./lib/archive/oai/mod.ts";
export { ResourceSync } from "./lib/archive/resourcesync/resource_sync.ts";
export { MirrorError, MirrorFileError } from "./lib/archive/resourcesync/mirror_error.ts";
export type {
  MirroredFile,
  MirrorOptions,
  MirrorResult,
  ResourceSyncDiscovery,
  ResourceSyncOptions,
} from "./lib/archive/resourcesync/mod.ts";
export { buildTable, columnTypes, TableBuilder } from "./lib/table/build_table.ts";
export { defineSchema } from "./lib/table/schema.ts";
export {
  deriveProvenance,
  type DeriveProvenanceParameters,
} from "./lib/table/derived_provenance.ts";
export {
  type Lineage,
  lineage,
  type LineageInput,
  withLineage,
  type WithLineageParameters,
} from "./lib/table/lineage.ts";
export { provenance } from "./lib/table/provenance.ts";
export { rows } from "./lib/table/typed_rows.ts";
export { tableDigest } from "./lib/table/table_digest.ts";
export type {
  ColumnSpec,
  ColumnType,
  ColumnValue,
  DynamicColumns,
  Provenance,
  RowOf,
  TableBuilderOptions,
  TableDigest,
  TableSchema,
} from "./lib/table/mod.ts";
export type { AssetRow, JobResultRow, JobRow, SavedResultRow } from "./lib/ocean/rows.ts";
export type { NftUpdateRow, OrderRow, TokenRow } from "./lib/subgraph/rows.ts";
export type { ExpressionRow } from "./lib/expressions/rows.ts";
export type { DatabaseRow, HarvestRow, ResourceRow, TripleRow } from "./lib/archive/rows.ts";
export { type ListCells, saveTable, type SaveTableOptions } from "./lib/files/save_table.ts";
export { readTable, type ReadTableOptions } from "./lib/files/read_table.ts";
export { DatasetWriter, writeDataset } from "./lib/dataset/dataset_writer.ts";
export { query, readParquetSql } from "./lib/dataset/query.ts";
export type {
  DatasetPartition,
  DatasetSummary,
  DatasetWriterOptions,
  QueryOptions,
} from "./lib/dataset/mod.ts";
export { HARVEST_STATE_FILE, harvestDataset } from "./lib/archive/oai/harvest_dataset.ts";
export type {
  HarvestDatasetOptions,
  HarvestPartitioning,
  HarvestSource,
} from "./lib/archive/oai/mod.ts";
export {
  harvestSources,
  SOURCE_LEDGER_FILE,
  sourceName,
  sourceShard,
} from "./lib/archive/oai/harvest_sources.ts";
export type {
  HarvestSourcesOptions,
  OaiSource,
  SourcesProgress,
  SourcesSummary,
  SourceSummary,
} from "./lib/archive/oai/harvest_sources.ts";
export { frictionlessSchema } from "./lib/bundle/frictionless_schema.ts";
export { reproduceBundle } from "./lib/bundle/reproduce_bundle.ts";
export { saveBundle } from "./lib/bundle/save_bundle.ts";
export { verifyBundle } from "./lib/bundle/verify_bundle.ts";
export type {
  BundleAuthor,
  BundleFile,
  BundleProblem,
  BundleVerification,
  FrictionlessField,
  FrictionlessSchema,
  FrictionlessType,
  ReproducedTable,
  ReproduceOptions,
  Reproduction,
  SaveBundleOptions,
  SavedBundle,
  VerifyOptions,
} from "./lib/bundle/mod.ts";
