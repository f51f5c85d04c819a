/**
 * The Ocean node's catalogue, file and publishing calls as free functions
 * of an `OceanNode` client, in viem's action style: the client first, then
 * the call's arguments. Each is what the `OceanNode` method of the same
 * name does; the methods call these. The compute calls stay methods of
 * `OceanNode` for now.
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
export * from "./files.ts";
export * from "./reads.ts";
export type {
  AssetFilter,
  AuthToken,
  CreateAuthTokenParameters,
  Ddo,
  DdoState,
  DdoStateKey,
  DecryptParameters,
  DownloadParameters,
  DownloadReturnType,
  EncryptInput,
  EncryptOptions,
  EsStyleQuery,
  FileObject,
  InitializeParameters,
  InitializeReturnType,
  NodeInfo,
  SearchAssetsOptions,
  ServiceRef,
  TypesenseQuery,
  TypesenseResult,
  ValidateDdoOptions,
  ValidateDdoResult,
  WaitForIndexedOptions,
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
