/**
 * Row types of the Ocean tables, for typed row access (`rows(table, ASSET_COLUMNS)`).
 *
 * @module
 */

/**
 * One row of the assets table (`assetsTable`, `searchAssets`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface AssetRow {
  /** The DID (`id`) */
  did: string | null;
  /** Title */
  name: string | null;
  /** `dataset` or `algorithm` */
  type: string | null;
  /** Description (5.0: the text of its `@value`) */
  description: string | null;
  /** Author */
  author: string | null;
  /** License (5.0: its `name`) */
  license: string | null;
  /** Tags (empty array when none) */
  tags: unknown[] | null;
  /** Creation date */
  created: Date | null;
  /** Last update */
  updated: Date | null;
  /** Chain id */
  chainId: number | null;
  /** Data NFT address */
  nftAddress: string | null;
  /** Owner of the data NFT */
  owner: string | null;
  /** NFT state 0..5 */
  nftState: number | null;
  /** active, end-of-life, deprecated, revoked, ordering disabled or unlisted */
  nftStateLabel: string | null;
  /** Datatoken addresses, one per service */
  datatokens: unknown[] | null;
  /** Service ids */
  serviceIds: unknown[] | null;
  /** Service types (`access`, `compute`) */
  serviceTypes: unknown[] | null;
  /** Whether the asset has a compute service */
  computeAllowed: boolean | null;
  /** First compute service: raw algorithms allowed (null without compute) */
  allowRawAlgorithm: boolean | null;
  /** First compute service: network access allowed (null without compute) */
  allowNetworkAccess: boolean | null;
  /** Node that serves the first service */
  serviceEndpoint: string | null;
  /** Algorithms: language */
  algorithmLanguage: string | null;
  /** Algorithms: container image and tag (`image:tag`) */
  algorithmImage: string | null;
  /** Block of the event the indexer stored */
  indexedBlock: number | null;
  /** Date of that block (UTC) */
  indexedAt: Date | null;
  /** DDO version, which tells the form: `5.0.0` is read from `credentialSubject` */
  version: string | null;
  /** DIDs of the algorithms the compute services trust (`*` for any) */
  trustedAlgorithms: unknown[] | null;
  /** Id of the first compute service: the service id a compute job needs (null without one) */
  computeServiceId: string | null;
  /** Whether the asset is in purgatory (flagged); null when the DDO has no entry */
  purgatory: boolean | null;
  /** Why it is in purgatory, when given */
  purgatoryReason: string | null;
  /** Orders the indexer counted, over every datatoken (null when no stats) */
  orders: number | null;
  /** The indexer's stats entries as sent (one object per datatoken) */
  stats: unknown[] | null;
}

/**
 * One row of the jobs table (`jobs`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface JobRow {
  /** Short job id, as the job list gives it */
  jobId: string | null;
  /** `<cluster hash>-<jobId>`, the id computeResult needs */
  fullJobId: string | null;
  /** Environment id */
  environment: string | null;
  /** First dataset's DID */
  did: string | null;
  /** Address that started the job */
  owner: string | null;
  /** Status code (spec section 3) */
  status: number | null;
  /** The node's status text */
  statusText: string | null;
  /** Label of the status code */
  statusLabel: string | null;
  /** Finished with results available (70, or 71 settling) */
  isFinished: boolean | null;
  /** Ended with a failure code */
  isFailed: boolean | null;
  /** dateCreated */
  dateCreated: Date | null;
  /** dateFinished */
  dateFinished: Date | null;
  /** When the algorithm started */
  algoStart: Date | null;
  /** When the algorithm stopped */
  algoStop: Date | null;
  /** Longest run, seconds */
  maxJobDuration: number | null;
  /** Algorithm exit code */
  exitCode: number | null;
  /** Killed for lack of memory */
  oomKilled: boolean | null;
  /** Result files published */
  resultCount: number | null;
  /** The result files: `{index, filename, filesize, type}` each (empty before they exist) */
  results: unknown[] | null;
  /** Whether the job is free */
  isFree: boolean | null;
  /** Resources granted: `{id, amount}` each (cpu, ram, disk, gpu) */
  resources: unknown[] | null;
  /** The order (agreement) of a paid job */
  agreementId: string | null;
  /** What the node sent for includeMetrics (shape not shown by the spec) */
  metrics: unknown | null;
}

/** One row of the job result files table (`jobResults`): one per file of each job. */
export interface JobResultRow {
  /** Short job id */
  jobId: string | null;
  /** `<cluster hash>-<jobId>` */
  fullJobId: string | null;
  /** Position in the job's results (computeResult's index) */
  index: number | null;
  /** The name the node gives the file (untrusted) */
  filename: string | null;
  /** Size in bytes */
  filesize: number | null;
  /** `output`, `algorithmLog`, `configurationLog`, ... */
  type: string | null;
}

/**
 * One row of the table of saved compute results (`downloadResults`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface SavedResultRow {
  /** Position in the job's results */
  index: number | null;
  /** output, algorithmLog, configurationLog, imageLog or publishLog */
  type: string | null;
  /** Name the node gave (as sent, untrusted) */
  filename: string | null;
  /** Where the file was saved (a safe name inside dir) */
  path: string | null;
  /** Bytes saved */
  bytes: number | null;
  /** SHA-256 of the saved file */
  sha256: string | null;
}
