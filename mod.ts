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
export {
  OCEAN_START_BLOCK,
  StaleSubgraphError,
  Subgraph,
  subgraphInfo,
} from "./lib/subgraph/mod.ts";
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
export {
  ASSET_COLUMNS,
  assetsTable,
  chainOrders,
  chainOrderSchema,
  compareOrders,
  downloadAsset,
  JOB_COLUMNS,
  JOB_RESULT_COLUMNS,
  JOB_STATUSES,
  JobFailedError,
  NFT_STATE_LABELS,
  OceanNode,
  orderAsset,
  orderDatatoken,
  ordersWithAssets,
  type OrdersWithAssetsOptions,
  prepareOrder,
  SANDBOX_CHAIN_ID,
  SAVED_RESULT_COLUMNS,
  signerFromEnv,
  signerFromPrivateKey,
  signRequest,
  statusLabel,
  TAG_COUNT_COLUMNS,
  type TagCountRow,
  tags,
} from "./lib/ocean/mod.ts";
export type {
  AccessRule,
  AlgorithmContainer,
  AlgorithmMetadata,
  AssetFilter,
  AssetOrderNode,
  ChainHex,
  ChainOrdersOptions,
  ComputeAssetRef,
  ComputeAssetTerms,
  ComputeEnvironment,
  ComputeJob,
  ComputeOptions,
  ComputePayment,
  ComputePaymentTerms,
  ComputeResource,
  ComputeResultFile,
  ComputeResultType,
  DatatokenOrder,
  Ddo,
  DdoDatatoken,
  DdoEvent,
  DdoMetadata,
  DdoNft,
  DdoService,
  DdoState,
  DdoStateKey,
  DownloadAssetOptions,
  DownloadAssetReturnType,
  DownloadParameters,
  DownloadResultsOptions,
  DownloadReturnType,
  EncryptInput,
  EncryptOptions,
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
  NodeInfo,
  OrderAccount,
  OrderAssetOptions,
  OrderDatatokenParameters,
  OrderProviderFee,
  PaidComputeAssetRef,
  PreparedOrder,
  ProviderFee,
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
export {
  BODY_PARTS,
  EMOTIONS,
  EXPRESSION_SEARCH_PACING,
  ExpressionSearch,
  kwic,
  KWIC_COLUMNS,
  type KwicOptions,
  type KwicRow,
} from "./lib/expressions/mod.ts";
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
export {
  Archive,
  ConflictError,
  PayloadTooLargeError,
  QuotaError,
  readSparqlResults,
  sparql,
  SparqlSyntaxError,
} from "./lib/archive/mod.ts";
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
  LinkedDataFormat,
  MetadataValue,
  MovedPath,
  ReadSparqlResultsOptions,
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
export { OaiPmh } from "./lib/archive/oai/mod.ts";
export type {
  HarvestOptions,
  HarvestPage,
  OaiIdentify,
  OaiPmhOptions,
  OaiRecord,
} from "./lib/archive/oai/mod.ts";
export { ResourceSync } from "./lib/archive/resourcesync/mod.ts";
export type {
  MirrorOptions,
  MirrorResult,
  ResourceSyncDiscovery,
  ResourceSyncOptions,
} from "./lib/archive/resourcesync/mod.ts";
export {
  buildTable,
  columnTypes,
  defineSchema,
  deriveProvenance,
  provenance,
  rows,
  TableBuilder,
  tableDigest,
} from "./lib/table/mod.ts";
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
export { readTable } from "./lib/files/read_table.ts";
export { DatasetWriter, query, readParquetSql, writeDataset } from "./lib/dataset/mod.ts";
export type {
  DatasetPartition,
  DatasetSummary,
  DatasetWriterOptions,
  QueryOptions,
} from "./lib/dataset/mod.ts";
export { HARVEST_STATE_FILE, harvestDataset } from "./lib/archive/oai/mod.ts";
export type {
  HarvestDatasetOptions,
  HarvestPartitioning,
  HarvestSource,
} from "./lib/archive/oai/mod.ts";
export { frictionlessSchema, reproduceBundle, saveBundle, verifyBundle } from "./lib/bundle/mod.ts";
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
} from "./lib/bundle/mod.ts";
