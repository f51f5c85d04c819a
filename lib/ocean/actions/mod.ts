/**
 * The Ocean node's catalogue, file, publishing and compute calls as free
 * functions of an `OceanNode` client, in viem's action style: the client
 * first, then the call's arguments. Each is what the `OceanNode` method of
 * the same name does; the methods call these.
 *
 * @example Datasets, as a function of the client
 * ```ts
 * import { OceanNode } from "@tidepool/tidepool/ocean";
 * import { searchAssets } from "@tidepool/tidepool/ocean/actions";
 * import { startOceanSandbox } from "@tidepool/tidepool/sandbox/ocean";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * console.log((await searchAssets(node, { type: "dataset" })).numRows());
 * ```
 *
 * @module
 */

export type { NodeHandle } from "./_node.ts";
export * from "./compute.ts";
export * from "./files.ts";
export * from "./paid_compute.ts";
export * from "./reads.ts";
export type {
  AccessRule,
  AssetFilter,
  AuthToken,
  ChainHex,
  ComputeAssetRef,
  ComputeAssetTerms,
  ComputeEnvironment,
  ComputeEscrowQuote,
  ComputeJob,
  ComputeLogsOptions,
  ComputePayment,
  ComputePaymentTerms,
  ComputeQuote,
  ComputeResource,
  ComputeResultFile,
  ComputeResultType,
  CreateAuthTokenParameters,
  DatatokenOrder,
  Ddo,
  DdoState,
  DdoStateKey,
  DecryptParameters,
  DownloadParameters,
  DownloadResultsOptions,
  DownloadReturnType,
  EncryptInput,
  EncryptOptions,
  EscrowAuthorization,
  EscrowSent,
  EscrowTerms,
  EsStyleQuery,
  FileObject,
  FreeTier,
  InitializeComputeParameters,
  InitializeComputeReturnType,
  InitializeParameters,
  InitializeReturnType,
  JobControlOptions,
  JobsOptions,
  MaxPrice,
  NodeInfo,
  OrderProviderFee,
  OrderQuote,
  PaidComputeAssetRef,
  PaidPart,
  PaymentPart,
  PlannedPayment,
  PlannedTransaction,
  QuoteComputeParameters,
  QuotedOrder,
  QuotedToken,
  ResourceRequest,
  ResultTextOptions,
  SearchAssetsOptions,
  ServiceRef,
  StartComputeParameters,
  StartComputeReturnType,
  StartFreeComputeParameters,
  TypesenseQuery,
  TypesenseResult,
  ValidateDdoOptions,
  ValidateDdoResult,
  WaitForIndexedOptions,
  WaitForJobOptions,
} from "../mod.ts";
export type { HttpClient } from "../../http/client.ts";
export type { StrictOption } from "../../http/unknown_shape.ts";
export type {
  AlgorithmContainer,
  AlgorithmMetadata,
  ComputeOptions,
  DdoCredentialSubject,
  DdoDatatoken,
  DdoEvent,
  DdoMetadata,
  DdoNft,
  DdoService,
  DdoV5Metadata,
  IndexedMetadata,
  LanguageValue,
} from "../ddo.ts";
export type { EsTermFilter, TypesenseHit } from "../types.ts";
export type { Hex, Signer } from "../_signer_shape.ts";
export type { ProviderFee } from "../download/initialize.ts";
export type { CacheMode } from "../../http/cache.ts";
export type { HttpRequest, QueryValue } from "../../http/request.ts";
export type { HttpResponse, HttpStream } from "../../http/response.ts";
export type { PagedReadOptions } from "../../paging/types.ts";
export type { ProgressTask } from "../../progress/progress.ts";
export type { CachePolicy } from "../../http/cache_policy.ts";
