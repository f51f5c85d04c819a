/**
 * Types of what an Ocean node answers besides DDOs (spec section 2): node
 * information, indexing state, metadata query results, file information and
 * compute environments.
 *
 * @module
 */

import type { Ddo } from "./ddo.ts";

/** `GET /`: who the node is. */
export interface NodeInfo {
  /** Peer id of the node. */
  nodeId: string;
  /** Chains the node indexes, as strings. */
  chainIds: string[];
  /** Address the node signs provider fees with. */
  providerAddress: string;
  /** Compressed public key as an index-to-byte map. */
  nodePublicKey: Record<string, number>;
  /** Software name. */
  software: string;
  /** Software version. */
  version: string;
  /**
   * Each route by name, as `[METHOD, path]`: ocean-node sends it, the spec's
   * node does not; tidepool uses the spec's fixed paths either way.
   */
  serviceEndpoints?: Record<string, [string, string]>;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** Indexing state of one asset, with `error` normalised. */
export interface DdoState {
  /** Chain id. */
  chainId: number;
  /** The DID. */
  did: string;
  /** Same as `did` on current nodes. */
  id: string;
  /** NFT address. */
  nft: string;
  /** Transaction that published or last edited the asset. */
  txId: string;
  /** Whether the indexer stored the DDO. */
  valid: boolean;
  /** The indexer's error, or null when there is none (the node sends a single space). */
  error: string | null;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/**
 * Exactly one way to look up an indexing state: a whole DID, the start of
 * one (`didPrefix`, matched by the node as the spec allows: the first asset
 * whose DID starts with it), an NFT address or a transaction id.
 */
export type DdoStateKey =
  | { did: string }
  | { didPrefix: string }
  | { nft: string }
  | { txId: string };

/** One hit of a metadata query. */
export interface TypesenseHit {
  /** The DDO. */
  document: Ddo;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** The result of one DDO collection in the metadata query answer. */
export interface TypesenseResult {
  /** Documents that match in this collection. */
  found: number;
  /** Documents in the collection. */
  out_of: number;
  /** Page number (from 1). */
  page: number;
  /** Time the search engine took. */
  search_time_ms?: number;
  /** Parameters as the search engine ran them. */
  request_params: { collection_name: string; per_page: number; [key: string]: unknown };
  /** This page's hits. */
  hits: TypesenseHit[];
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A filter of the Elasticsearch-style body: exactly one of `term` or `terms`, one field each. */
export type EsTermFilter =
  | { term: Record<string, string | number | boolean> }
  | { terms: Record<string, (string | number | boolean)[]> };

/** The Elasticsearch-style query body the node translates (and nothing more). */
export interface EsStyleQuery {
  /** Start offset. */
  from?: number;
  /** Hits per page. */
  size?: number;
  /** Field name to `asc` or `desc`. */
  sort?: Record<string, "asc" | "desc">;
  /** Only `bool.filter` and `bool.must_not` are translated. */
  query?: { bool: { filter?: EsTermFilter[]; must_not?: EsTermFilter[] } };
}

/** The Typesense-style query body, passed to the search engine as is. */
export interface TypesenseQuery {
  /** Filter expression, for example `metadata.type:=dataset`. Required (may be empty). */
  filter_by: string;
  /** Search text; `*` for all. */
  q?: string;
  /** Fields the search text is matched against, comma separated. */
  query_by?: string;
  /** Sort expression, for example `indexedMetadata.event.block:desc`. */
  sort_by?: string;
  /** Hits per page (the engine caps it at 250). */
  per_page?: number;
  /** Page number, from 1. */
  page?: number;
  /** Any other search parameter, passed to the engine as given. */
  [key: string]: unknown;
}

/** One file's information from `POST /api/services/fileInfo`. */
export interface FileInfo {
  /** Whether the node could reach the file. */
  valid: boolean;
  /** Size in bytes, as a string. */
  contentLength: string;
  /** MIME type. */
  contentType: string;
  /** SHA-256 of the file. */
  checksum?: string;
  /** File name. */
  name?: string;
  /** Storage type (`url`, `ipfs`, ...). */
  type: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A file object for `fileInfo` of an unpublished file. */
export interface FileObject {
  /** Storage type, `url`, `ipfs`, `arweave`, ... */
  type: string;
  /** Address of the file, for `url` files. */
  url?: string;
  /** HTTP method, for `url` files. */
  method?: string;
  /** Any other field the storage type needs (`hash` for ipfs, `transactionId` for arweave, ...), sent as given. */
  [key: string]: unknown;
}

/** A published asset's service, for `fileInfo`. */
export interface ServiceRef {
  /** The DID. */
  did: string;
  /** The service id. */
  serviceId: string;
}

/** Who may use an environment (or its free tier). */
export interface AccessRule {
  /** Allowed addresses; empty with no lists means anyone. */
  addresses: string[];
  /** Access-list contracts, or null. */
  accessLists: Record<string, unknown>[] | null;
}

/** One resource of a compute environment. */
export interface ComputeResource {
  /** `cpu`, `ram`, `disk` or `gpu`. */
  id: string;
  /** Resource type. */
  type?: string;
  /** Resource kind. */
  kind?: string;
  /** Total amount. */
  total?: number;
  /** Most one job may ask for. */
  max?: number;
  /** Least one job must ask for. */
  min?: number;
  /** Amount in use. */
  inUse?: number;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** The free tier of a compute environment. */
export interface FreeTier {
  /** Who may start free jobs. */
  access: AccessRule;
  /** Shortest free job, seconds. */
  minJobDuration: number;
  /** Longest free job, seconds. */
  maxJobDuration: number;
  /** Most free jobs at once per user. */
  maxJobs: number;
  /** Free resources. */
  resources: ComputeResource[];
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** A compute environment from `GET /api/services/computeEnvironments`. */
export interface ComputeEnvironment {
  /** `<cluster hash>-<environment hash>`. */
  id: string;
  /** Description. */
  description: string;
  /** Address of the environment's consumer wallet. */
  consumerAddress: string;
  /** Jobs running. */
  runningJobs: number;
  /** Free jobs running (the node spells it `runningfreeJobs`). */
  runningfreeJobs: number;
  /** Jobs queued. */
  queuedJobs: number;
  /** Free jobs queued. */
  queuedFreeJobs: number;
  /** Whether jobs get network access. */
  enableNetwork: boolean;
  /** Fees of paid jobs, or null when there are no paid jobs. */
  fees: Record<string, unknown> | null;
  /** Who may start paid jobs. */
  access: AccessRule;
  /** Resources of the environment. */
  resources: ComputeResource[];
  /** Shortest job, seconds. */
  minJobDuration: number;
  /** Longest job, seconds. */
  maxJobDuration: number;
  /** Seconds results are kept. */
  storageExpiry: number;
  /** The free tier. */
  free?: FreeTier;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}
