/**
 * Types of an Ocean asset description (DDO, versions 4.x and 5.0) as the node serves it,
 * with the fields of spec section 2. Fields the spec does not show are kept as
 * `unknown` records so nothing a node sends is lost, and older (4.0.0) DDOs that
 * carry `nft`, `event`, `stats` at the top level instead of under `indexedMetadata`
 * still type-check.
 *
 * @module
 */

/** Container of an algorithm asset. */
export interface AlgorithmContainer {
  /** Command run in the container, for example `python $ALGO`. */
  entrypoint: string;
  /** Docker image name. */
  image: string;
  /** Docker image tag. */
  tag: string;
  /** Image checksum, `sha256:<hex>`. */
  checksum: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `metadata.algorithm`, present on algorithms only. */
export interface AlgorithmMetadata {
  /** Language of the algorithm (may be empty). */
  language?: string;
  /** Container that runs the algorithm. */
  container: AlgorithmContainer;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `metadata` of a DDO. */
export interface DdoMetadata {
  /** `dataset` or `algorithm`. */
  type: "dataset" | "algorithm";
  /** Title. */
  name: string;
  /** Description (often Markdown). */
  description: string;
  /** Author as the publisher wrote it. */
  author: string;
  /** License name or URL. */
  license: string;
  /** Free tags. */
  tags?: string[];
  /** Creation date-time, ISO 8601. */
  created: string;
  /** Last update date-time, ISO 8601. */
  updated: string;
  /** Algorithm description, algorithms only. */
  algorithm?: AlgorithmMetadata;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `services[].compute`. */
export interface ComputeOptions {
  /** Whether a raw (unpublished) algorithm may run on the data. */
  allowRawAlgorithm: boolean;
  /** Whether the job may use the network. */
  allowNetworkAccess: boolean;
  /** Algorithms the publisher trusts (entry fields not shown by the spec). */
  publisherTrustedAlgorithms?: Record<string, unknown>[];
  /** Publishers whose algorithms are trusted, `*` for anyone. */
  publisherTrustedAlgorithmPublishers?: string[];
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** One item of `services[]`. */
export interface DdoService {
  /** Service id, referenced by datatokens and compute requests. */
  id: string;
  /** `access` (download) or `compute` (compute-to-data). */
  type: "access" | "compute" | string;
  /** File list, encrypted by the node (a `0x` hex string); an object in drafts. */
  files: string | Record<string, unknown>;
  /** Datatoken that grants the service. */
  datatokenAddress?: string;
  /** Address of the node that serves the asset. */
  serviceEndpoint?: string;
  /** Seconds an order stays valid; 0 means forever. */
  timeout: number;
  /** Compute options, compute services only. */
  compute?: ComputeOptions;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** One item of `datatokens[]`. */
export interface DdoDatatoken {
  /** Datatoken contract address. */
  address: string;
  /** Datatoken name. */
  name: string;
  /** Datatoken symbol. */
  symbol: string;
  /** Service this datatoken grants. */
  serviceId: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `indexedMetadata.event`: the chain event the indexer stored the DDO from. */
export interface DdoEvent {
  /** Block number. */
  block?: number;
  /** Contract that emitted the event. */
  contract?: string;
  /** Transaction hash, as the spec names it. */
  tx?: string;
  /** Transaction hash, as ocean-node's indexer names it. */
  txid?: string;
  /** Date-time of the block. */
  datetime?: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `indexedMetadata.nft`: the data NFT as the indexer saw it. */
export interface DdoNft {
  /** NFT contract address. */
  address: string;
  /** NFT name. */
  name: string;
  /** NFT symbol. */
  symbol: string;
  /** Current owner. */
  owner: string;
  /** Creation date-time. */
  created: string;
  /** 0 active, 1 end-of-life, 2 deprecated, 3 revoked, 4 ordering disabled, 5 unlisted. */
  state: number;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `indexedMetadata`, added by the indexer and not signed by the publisher. */
export interface IndexedMetadata {
  /** Chain event. */
  event?: DdoEvent;
  /** Data NFT. */
  nft?: DdoNft;
  /** Purgatory entry (fields not shown by the spec). */
  purgatory?: Record<string, unknown>;
  /** Statistics (fields not shown by the spec). */
  stats?: Record<string, unknown>[];
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** An asset description (DDO) as served by an Ocean node. */
export interface Ddo {
  /** JSON-LD context. */
  "@context"?: string[];
  /** The DID, `did:<method-tag>:<64 lowercase hex>`. */
  id: string;
  /** DDO version: `4.1.0` to `4.7.0`, or `5.0.0` (then the asset is under `credentialSubject`). */
  version: string;
  /** Chain id of the network the asset is published on. */
  chainId: number;
  /** Data NFT address. */
  nftAddress: string;
  /** Publisher's description. */
  metadata: DdoMetadata;
  /** Services (access, compute). */
  services: DdoService[];
  /** Datatokens, one per service. */
  datatokens?: DdoDatatoken[];
  /** Indexer additions. */
  indexedMetadata?: IndexedMetadata;
  /** Older (4.0.0) DDOs: NFT at the top level. */
  nft?: DdoNft;
  /** Older (4.0.0) DDOs: event at the top level. */
  event?: DdoEvent;
  /**
   * DDO 5.0.0 (ddo.js, a verifiable credential): the asset itself, with the
   * fields a 4.x DDO has at the top level. The node sends only `id`,
   * `version` and the credential's own fields at the top level; `ddo()` and
   * `waitForIndexed()` add the asset's fields there too (see `ddo()`).
   */
  credentialSubject?: DdoCredentialSubject;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A JSON-LD value object: text with its language (DDO 5.0 `description`). */
export interface LanguageValue {
  /** The text. */
  "@value": string;
  /** Its language, `en`. */
  "@language"?: string;
  /** Its direction, `ltr` or `rtl`. */
  "@direction"?: string;
}

/** `credentialSubject.metadata` of a DDO 5.0.0. */
export interface DdoV5Metadata {
  /** `dataset` or `algorithm`. */
  type: "dataset" | "algorithm";
  /** Title. */
  name: string;
  /** Description with its language (a plain string is tolerated). */
  description: LanguageValue | string;
  /** Author as the publisher wrote it. */
  author: string;
  /** License by name (a plain string is tolerated). */
  license: { name: string; [key: string]: unknown } | string;
  /** Free tags. */
  tags?: string[];
  /** Creation date-time, ISO 8601. */
  created: string;
  /** Last update date-time, ISO 8601. */
  updated: string;
  /** Algorithm description, algorithms only. */
  algorithm?: AlgorithmMetadata;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** `credentialSubject` of a DDO 5.0.0: the asset as a 4.x DDO holds it at the top level. */
export interface DdoCredentialSubject {
  /** The DID. */
  id: string;
  /** Chain id of the network the asset is published on. */
  chainId: number;
  /** Data NFT address. */
  nftAddress: string;
  /** Publisher's description. */
  metadata: DdoV5Metadata;
  /** Services (access, compute). */
  services: DdoService[];
  /** Datatokens, one per service. */
  datatokens?: DdoDatatoken[];
  /** Indexer additions. */
  indexedMetadata?: IndexedMetadata;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** Labels of the NFT states, indexed by state number. */
export const NFT_STATE_LABELS: readonly string[] = [
  "active",
  "end-of-life",
  "deprecated",
  "revoked",
  "ordering disabled",
  "unlisted",
];
