/**
 * The Ocean node client: catalogue search into tables, DDOs, indexing state,
 * file information, compute jobs, downloads and publishing helpers.
 *
 * Each capability is documented once, on its method here (the public entry
 * point); the function behind a method carries a one-line pointer back.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { checkOptions } from "../options/check_options.ts";
import { checkCall } from "./_option_rules.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../http/options.ts";
import type { StrictOption } from "../http/unknown_shape.ts";
import type { Ddo } from "./ddo.ts";
import type {
  ComputeEnvironment,
  DdoState,
  DdoStateKey,
  EsStyleQuery,
  FileObject,
  NodeInfo,
  ServiceRef,
  TypesenseQuery,
  TypesenseResult,
} from "./types.ts";
import type { WaitForIndexedOptions } from "./_ddo.ts";
import type { AssetFilter, SearchAssetsOptions } from "./_search_body.ts";
import type {
  ComputeLogsOptions,
  DownloadResultsOptions,
  JobControlOptions,
  JobsOptions,
  ResultTextOptions,
  StartFreeComputeParameters,
  WaitForJobOptions,
} from "./compute/mod.ts";
import type { ComputeJob } from "./compute/types.ts";
import type {
  InitializeComputeParameters,
  InitializeComputeReturnType,
} from "./compute/initialize_compute.ts";
import type { StartComputeParameters, StartComputeReturnType } from "./compute/start_compute.ts";
import type { ComputeQuote, QuoteComputeParameters } from "./compute/_paid_compute_types.ts";
import type {
  DownloadParameters,
  DownloadReturnType,
  InitializeParameters,
  InitializeReturnType,
} from "./download/mod.ts";
import type { Signer } from "./signer.ts";
import type { AuthToken, CreateAuthTokenParameters } from "./auth_token.ts";
import type {
  DecryptParameters,
  EncryptInput,
  EncryptOptions,
  ValidateDdoOptions,
  ValidateDdoResult,
} from "./publish/mod.ts";
import * as compute from "./actions/compute.ts";
import * as files from "./actions/files.ts";
import * as paid from "./actions/paid_compute.ts";
import * as reads from "./actions/reads.ts";

export type { AssetFilter, SearchAssetsOptions } from "./_search_body.ts";
export type { WaitForIndexedOptions } from "./_ddo.ts";

/**
 * A client of one Ocean node.
 *
 * @example Searching the catalogue into a table
 * ```ts
 * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const assets = await node.searchAssets({ type: "dataset", tags: ["weather"] });
 * console.log(assets.numRows(), assets.columnNames());
 * ```
 */
export class OceanNode {
  /** The HTTP client of this node (shared with the compute and download methods). */
  readonly http: HttpClient;

  /**
   * Creates a client of one node, sending at most four requests at a time.
   *
   * @param url The node address, such as `https://node.example`.
   * @param options The shared client options.
   */
  constructor(url: string, options: ClientOptions = {}) {
    const checked = checkOptions("new OceanNode", options, CLIENT_OPTION_RULES);
    this.http = new HttpClient(url, { ...checked, defaults: { concurrency: 4 } });
  }

  /**
   * Who the node is: peer id, chains, provider address, software version.
   *
   * @returns The node information.
   *
   * @example Reading the node version
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const { version, chainIds } = await node.info();
   * console.log(version, chainIds);
   * ```
   */
  info(): Promise<NodeInfo> {
    return reads.info(this);
  }

  /**
   * The last nonce the node stored for an address (a signed request needs a
   * larger one).
   *
   * @param address The wallet address.
   * @returns The nonce as a string of digits (a millisecond timestamp on some wallets).
   *
   * @example Reading a nonce
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const nonce = await node.nonce("0x" + "ab".repeat(20));
   * console.log(nonce);
   * ```
   */
  nonce(address: string): Promise<string> {
    return reads.nonce(this, address);
  }

  /**
   * One asset description. The DID is checked locally first.
   *
   * A 5.0.0 DDO (ddo.js's verifiable credential, the asset under
   * `credentialSubject`) comes with its asset's fields also at the top
   * level, as 4.x has them, so `services`, `chainId`, `nftAddress` and
   * `metadata` (description and license as text) read the same for every
   * version; `credentialSubject` stays as the node sent it.
   *
   * @param did `did:<method-tag>:<64 lowercase hex>`.
   * @returns The DDO.
   * @throws NotFoundError when the asset is not indexed (yet, or never); see `ddoState`.
   *
   * @example Reading a DDO
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [first] = (await node.searchAssets({ type: "dataset" })).objects() as { did: string }[];
   * const ddo = await node.ddo(first.did);
   * console.log(ddo.metadata.name);
   * ```
   */
  ddo(did: string): Promise<Ddo> {
    return reads.ddo(this, did);
  }

  /**
   * The indexing state of an asset, by exactly one of `did`, `didPrefix`,
   * `nft` or `txId`. The node matches a DID by its start; a whole DID is
   * checked locally, and the start of one is sent only as `didPrefix`, so a
   * truncated DID never reads another asset by mistake. The state answered
   * must be of the DID asked for (or start with the prefix).
   *
   * @param key `{ did }`, `{ didPrefix }`, `{ nft }` or `{ txId }`.
   * @returns The state; `error` is null when there is no error.
   * @throws NotFoundError when the indexer has never seen the asset.
   *
   * @example Why an asset is missing
   * ```ts ignore (needs the transaction id of a DDO published on a chain)
   * const state = await node.ddoState({ txId: "0x..." });
   * if (!state.valid) console.log(state.error);
   * const same = await node.ddoState({ didPrefix: state.did.slice(0, 20) });
   * ```
   */
  ddoState(key: DdoStateKey): Promise<DdoState> {
    return reads.ddoState(this, key);
  }

  /**
   * Sends a metadata query body and returns the node's per-collection results.
   * A Typesense-style body (with `filter_by`) is sent as is; an
   * Elasticsearch-style body is checked first, and any part the node would
   * silently ignore (match, exists, nested bool, aggregations, `.keyword`
   * names) is an error instead of a silently wrong answer.
   *
   * @param body An Elasticsearch-style or Typesense-style query body.
   * @returns One result per DDO collection; documents are at `[i].hits[j].document`.
   *
   * @example Ten datasets
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [result] = await node.query({
   *   size: 10, query: { bool: { filter: [{ term: { "metadata.type": "dataset" } }] } },
   * });
   * console.log(result.found, result.hits.length);
   * ```
   */
  query(body: EsStyleQuery | TypesenseQuery): Promise<TypesenseResult[]> {
    return reads.query(this, body);
  }

  /**
   * Searches the catalogue, every page, into the assets table. Unlisted
   * assets (NFT state 5) are hidden unless asked for; assets are
   * de-duplicated by DID across pages and collections; a node that stops
   * short of the count it reported is said in a warning stating found
   * versus received.
   *
   * Columns, in order: did, name, type, description, author, license, tags,
   * created, updated, chainId, nftAddress, owner, nftState, nftStateLabel,
   * datatokens, serviceIds, serviceTypes, computeAllowed, allowRawAlgorithm,
   * allowNetworkAccess, serviceEndpoint, algorithmLanguage, algorithmImage,
   * indexedBlock, indexedAt, version, trustedAlgorithms.
   *
   * @param filter What to match; `{}` for everything.
   * @param options Unlisted assets, page size, sort.
   * @returns An Arquero table, the same columns for 0 rows or many.
   *
   * @example Algorithms of one owner
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const algorithms = await node.searchAssets({ type: "algorithm" });
   * console.log(algorithms.numRows());
   * ```
   */
  searchAssets(filter: AssetFilter = {}, options: SearchAssetsOptions = {}): Promise<ColumnTable> {
    return reads.searchAssets(this, filter, options);
  }

  /**
   * The assets table of DDOs you already have. A DDO of a form tidepool
   * does not know (a version other than 4.x, 5.x or `deprecated`, or no
   * metadata) gives a warning, or with `strict` an error.
   *
   * @param ddos The DDOs.
   * @param options `strict` to refuse DDOs of an unknown form.
   * @returns The same columns as `searchAssets`.
   *
   * @example A table of two DDOs
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [a, b] = (await node.searchAssets()).array("did") as string[];
   * const table = node.assetsTable([await node.ddo(a), await node.ddo(b)]);
   * console.log(table.numRows());
   * ```
   */
  assetsTable(ddos: Iterable<Ddo>, options: StrictOption = {}): ColumnTable {
    return reads.assetsTable(this, ddos, options);
  }

  /**
   * File information of a published service (anyone may ask, compute-only
   * datasets included) or of a file object; the URL is never returned.
   *
   * @param target `{ did, serviceId }` or a file object such as `{ type: "url", url }`.
   * @returns Columns index, valid, name, type, contentType, contentLength (number), checksum.
   *
   * @example Sizes of a dataset's files
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [first] = (await node.searchAssets({ type: "dataset" })).objects() as { did: string }[];
   * const ddo = await node.ddo(first.did);
   * const files = await node.fileInfo({ did: first.did, serviceId: ddo.services[0].id });
   * console.log(files.objects());
   * ```
   */
  fileInfo(target: ServiceRef | FileObject): Promise<ColumnTable> {
    return reads.fileInfo(this, target);
  }

  /**
   * The compute environments of a chain, as the node describes them.
   *
   * @param chainId The chain id, such as 11155111.
   * @returns The environments.
   *
   * @example The free tier's longest job
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox();
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [env] = await node.computeEnvironments(11155111);
   * console.log(env.free?.maxJobDuration);
   * ```
   */
  computeEnvironments(chainId: number): Promise<ComputeEnvironment[]> {
    return compute.computeEnvironments(this, chainId);
  }

  /**
   * The compute environments as a table: id, description, the free tier's
   * minJobDuration, maxJobDuration and maxJobs, each free resource's
   * total/max/min/inUse (cpuTotal ... gpuInUse), enableNetwork, paid,
   * freeAllowlistSize, freeAccessLists, storageExpiry, runningJobs, queuedJobs.
   *
   * @param chainId The chain id.
   * @returns One row per environment.
   *
   * @example Free limits
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox();
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const envs = await node.environmentsTable(11155111);
   * console.log(envs.select("id", "maxJobDuration", "cpuMax").objects());
   * ```
   */
  environmentsTable(chainId: number): Promise<ColumnTable> {
    return compute.environmentsTable(this, chainId);
  }

  /**
   * Waits until the indexer has stored a newly published asset and returns
   * its DDO, with progress; throws with the indexer's text when it rejected
   * the asset, and a TimeoutError when time runs out. Aborting `signal`
   * cancels the pause and the poll in flight.
   *
   * @param target The DID, or `{ txId }` of the publishing transaction.
   * @param options `pollMs` (default 2,000), `timeoutMs` (default 5 minutes), `signal`.
   * @returns The DDO once the node serves it.
   *
   * @example After publishing
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [first] = (await node.searchAssets({ type: "dataset" })).objects() as { did: string }[];
   * const ddo = await node.waitForIndexed(first.did, { timeoutMs: 120_000 });
   * console.log(ddo.id === first.did);
   * ```
   */
  waitForIndexed(
    target: string | { txId: string },
    options: WaitForIndexedOptions = {},
  ): Promise<Ddo> {
    return reads.waitForIndexed(this, target, options);
  }

  /**
   * Starts a free compute job (`POST /api/services/freeCompute`, signed
   * `freeStartCompute`). Before anything is sent, the request is checked
   * against the node's environments: the environment exists and offers free
   * jobs, the signer is on its free allowlist, each resource and the
   * duration are within the free limits; every violation is reported in one
   * error. The request is sent once and never retried, since a retry could
   * start a second job; only a nonce mismatch (nothing started) is re-signed
   * once.
   *
   * @param parameters The signer, environment, algorithm, datasets and limits;
   *   `chainId` picks the environments (default: the node's first chain).
   * @returns The started jobs (usually one), as the node answered.
   *
   * @example A free job
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({
   *   signer, environment, algorithm, datasets: [dataset],
   *   resources: [{ id: "cpu", amount: 1 }], maxJobDuration: 60,
   * });
   * console.log(job.jobId);
   * ```
   */
  startFreeCompute(
    parameters: StartFreeComputeParameters & { chainId?: number },
  ): Promise<ComputeJob[]> {
    return compute.startFreeCompute(this, parameters);
  }

  /**
   * Asks the node what a paid job would need (`POST
   * /api/services/initializeCompute`, unsigned): for the algorithm and each
   * dataset, the datatoken, the address orders must be made for (the
   * environment's consumer address), whether a given `transferTxId` is still
   * a valid order, and otherwise a fresh signed provider fee; and the price
   * of the resources. Nothing is ordered or started.
   *
   * @param parameters Consumer, environment, algorithm, datasets, payment chain and token.
   * @returns The node's terms, in ocean-node's field names, as received.
   *
   * @example What a paid job needs
   * ```ts ignore (needs assets and a payment token on a chain: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
   * const terms = await node.initializeCompute({
   *   consumer: signer.address, environment: env.id, algorithm, datasets: [dataset],
   *   payment: { chainId: 31337, token: oceanToken },
   * });
   * console.log(terms.datasets[0].validOrder, terms.datasets[0].providerFee?.validUntil);
   * ```
   */
  initializeCompute(
    parameters: InitializeComputeParameters,
  ): Promise<InitializeComputeReturnType> {
    return paid.initializeCompute(this, parameters);
  }

  /**
   * Starts a paid compute job: checks the request against the environment
   * (it exists, takes payment on the order chain, the resources and duration
   * fit its limits) and the datasets' algorithm policy, asks
   * `initializeCompute` for the provider fees, prepares an order for the
   * algorithm and each dataset (reusing a still-valid order of the signer;
   * price, `maxPrice`, fee expiry and balance are checked for all of them
   * together) and only then sends the orders, signs `startCompute` and posts
   * `POST /api/services/compute` with the order transactions. The start is
   * sent once and never retried. Follow the job with `waitForJob` and
   * `downloadResults`, as a free one.
   *
   * Orders are made for the environment's consumer address and paid by the
   * signer, as the node checks them. An environment that prices its
   * resources is paid through ocean-node's Escrow within the same cap: the
   * node's terms asked again and the escrow read again in the wallet's
   * lane, only the missing funds deposited, the node authorized for the
   * lock, the job started, and the authorization set back to what it was.
   *
   * @param parameters Signer, environment, algorithm, datasets, order chain and limits.
   * @returns The started jobs and the orders they run on.
   * @throws {TidepoolError} When the request does not fit the environment or
   *   the balance (nothing sent), or when the start fails after orders were
   *   paid: that error names their transactions, which stay valid (start
   *   again and they are reused, or give each as its asset's `transferTxId`).
   *
   * @example A paid job on the sandbox chain
   * ```ts ignore (needs a chain to order on: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
   * const { jobs: [job], orders } = await node.startCompute({
   *   signer, environment: env.id, algorithm, datasets: [dataset],
   *   rpcUrl: sandbox.chain!.rpcUrl, maxPrice: "2",
   * });
   * const done = await node.waitForJob(signer.address, job.jobId);
   * ```
   */
  startCompute(parameters: StartComputeParameters): Promise<StartComputeReturnType> {
    return paid.startCompute(this, parameters);
  }

  /**
   * Quotes a paid compute job without signing or sending anything: the
   * checks of `startCompute`, the node's `initializeCompute` terms, and for
   * the algorithm and each dataset the order's transactions (approvals,
   * purchase or dispenser, `startOrder`), what each pays and to whom, and
   * its gas, read live from the node and the chain (never from a
   * recording). A still-valid order is quoted as reused. An environment
   * that prices its resources adds the escrow (`escrow`: the deposit, the
   * authorization, the node's lock) with its rows. Pass the quote to
   * `startCompute` as `quote` to execute exactly it.
   *
   * @param parameters As `startCompute`'s, without `quote`.
   * @returns The quote: `transactions` and `totals` tables, and the orders.
   *
   * @example What a paid job will cost
   * ```ts ignore (needs a chain to read prices and balances from: tests/chain/paid_compute_test.ts runs it on anvil, which takes minutes to start)
   * const quote = await node.quoteCompute({ signer, environment: env.id, algorithm, datasets, rpcUrl });
   * quote.totals.print();
   * // One cap for the whole job: its orders together, fees included.
   * const { jobs } = await node.startCompute({
   *   signer, environment: env.id, algorithm, datasets, rpcUrl, quote, maxPrice: "3",
   * });
   * ```
   */
  quoteCompute(parameters: QuoteComputeParameters): Promise<ComputeQuote> {
    return paid.quoteCompute(this, parameters);
  }

  /**
   * The compute jobs of a consumer as a table (`GET /api/services/compute`,
   * no signature needed). Columns: `jobId, fullJobId, environment, did,
   * owner, status, statusText, statusLabel, isFinished, isFailed,
   * dateCreated, dateFinished, algoStart, algoStop, maxJobDuration, exitCode,
   * oomKilled, resultCount, results, isFree, resources, agreementId, metrics`;
   * dates are `Date`, `results` holds the files (`{index, filename, filesize,
   * type}`); `jobResults` gives them one row each.
   *
   * With `includeMetrics` the spec asks for a signature: give the consumer
   * as a signer (it signs `getComputeStatus`) or a `token` from
   * `createAuthToken`; an address alone is refused before anything is sent.
   *
   * @param consumer The address (or signer) whose jobs to list; sent checksummed.
   * @param options One job id, one agreement, includeMetrics (signed), a token, a signal.
   * @returns One row per job.
   *
   * @example Listing the jobs of a wallet
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const table = await node.jobs(signer.address);
   * console.log(table.select("jobId", "statusLabel").objects());
   * ```
   */
  jobs(consumer: string | Signer, options: JobsOptions = {}): Promise<ColumnTable> {
    return compute.jobs(this, consumer, options);
  }

  /**
   * The result files of a consumer's jobs, one row per file: `jobId,
   * fullJobId, index, filename, filesize, type` (columns of
   * `JOB_RESULT_COLUMNS`). `index` is what `computeResult` takes; jobs
   * without results give no row. No signature needed.
   *
   * @param consumer The address (or signer) whose jobs to list; sent checksummed.
   * @param options One job id, one agreement, a signal.
   * @returns One row per result file.
   *
   * @example The outputs of every job of a wallet
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 100 });
   * const files = await node.jobResults(signer.address);
   * console.log(files.filter((d) => d.type === "output").objects());
   * ```
   */
  jobResults(consumer: string | Signer, options: JobsOptions = {}): Promise<ColumnTable> {
    return compute.jobResults(this, consumer, options);
  }

  /**
   * Polls a compute job until it finishes (70, or 71 settling: results are
   * available), with progress that shows the status text. The poll interval
   * stays under the node's rate limit, and a 429 `Try again in N seconds.`
   * is waited out by the HTTP layer. Aborting `signal` cancels the pause and
   * the poll in flight.
   *
   * @param consumer The job owner's address (or signer).
   * @param jobId The short job id.
   * @param options `pollMs` (default 5,000), `timeoutMs` (default 30 minutes), `signal`.
   * @returns The finished job as the node lists it.
   * @throws {JobFailedError} When the job ends with a failure code.
   * @throws {TimeoutError} When the job has not finished within the limit.
   *
   * @example Waiting for a job
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 100 });
   * console.log(done.results?.map((r) => r.filename));
   * ```
   */
  waitForJob(
    consumer: string | Signer,
    jobId: string,
    options: WaitForJobOptions = {},
  ): Promise<ComputeJob> {
    checkCall("OceanNode.waitForJob", options);
    return compute.waitForJob(this, { ...options, consumer, jobId });
  }

  /**
   * One job of a consumer by id, in either form (the short id or
   * `<cluster hash>-<jobId>`), as the node lists it now (unsigned).
   *
   * @param consumer The owner's address (or signer).
   * @param jobId The job id, short or long.
   * @param options A signal.
   * @returns The job.
   * @throws {TidepoolError} When the node lists no such job for the consumer.
   *
   * @example The status of one job
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const now = await node.job(signer.address, job.jobId);
   * console.log(now.status, now.statusText);
   * ```
   */
  job(
    consumer: string | Signer,
    jobId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<ComputeJob> {
    checkCall("OceanNode.job", options);
    return compute.job(this, { ...options, consumer, jobId });
  }

  /**
   * Stops a job (`PUT /api/services/compute`, signed `stopCompute` by the
   * owner, with the id as `<cluster hash>-<jobId>`: a short id is completed
   * from the owner's job list). The node marks the job to stop and answers
   * it as it was; the job then ends at the node's pace (follow it with
   * `waitForJob` or `job`). A job that has ended is answered unchanged.
   *
   * @param jobId The job id, short or long.
   * @param options The owner's signer, a signal.
   * @returns The job as the node answered the stop.
   * @throws {TidepoolError} When the node has no such job of the signer.
   *
   * @example Stopping a job that runs too long
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 60_000 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * await node.stopCompute(job.jobId, { signer });
   * ```
   */
  stopCompute(jobId: string, options: JobControlOptions): Promise<ComputeJob> {
    return compute.stopCompute(this, jobId, options);
  }

  /**
   * Follows a running job's output as the node streams it
   * (`GET /api/services/computeStreamableLogs`, signed
   * `getComputeStreamableLogs`): one string per line, as they come, shown
   * in the progress display (the notebook's or the terminal's). The stream
   * ends when the algorithm does. The node streams only while the algorithm
   * runs: before, wait with `waitForJob`; after, read its `algorithmLog`
   * result with `resultText`.
   *
   * @param jobId The job id, short or long.
   * @param options The owner's signer, the silence allowed (`idleTimeoutMs`), a signal.
   * @returns The lines, as an async iterable.
   * @throws {HttpError} 404 when the job is not running.
   *
   * @example Printing a job's output as it runs
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * // A clock moved by hand to the end of step 4 (1 s each): the algorithm runs, its lines are out.
   * const clock = { now: 1_700_000_000_000 };
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 1_000, now: () => clock.now } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * clock.now += 4_990;
   * for await (const line of node.computeLogs(job.jobId, { signer })) console.log(line);
   * ```
   */
  computeLogs(jobId: string, options: ComputeLogsOptions): AsyncGenerator<string> {
    return compute.computeLogs(this, jobId, options);
  }

  /**
   * Downloads the result files of a finished (or failed) job
   * (`GET /api/services/computeResult`, signed `getComputeResult` afresh for
   * each file). Each body is streamed to a temporary file in `dir` and
   * renamed when complete, under the node's file name made safe: nothing is
   * written outside `dir`, nothing is overwritten, and a 200 with an empty
   * body where bytes were promised is an error.
   *
   * @param job The job as `waitForJob` or the job list returned it.
   * @param options The signer, the folder, the result types, a signal.
   * @returns A table of the saved files: `index, type, filename, path, bytes, sha256`.
   *
   * @example Saving every result
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 100 });
   * const files = await node.downloadResults(done, { signer, dir: await Deno.makeTempDir() });
   * console.log(files.objects());
   * ```
   */
  downloadResults(job: ComputeJob, options: DownloadResultsOptions): Promise<ColumnTable> {
    return compute.downloadResults(this, job, options);
  }

  /**
   * Reads one small result (a log, a JSON summary) as text, for a notebook
   * cell. Larger files belong on disk: use `downloadResults`.
   *
   * @param job The job as the job list returned it (also `JobFailedError.job`).
   * @param index The position of the result in `job.results`.
   * @param options The signer, a size cap (default 1 MiB), a signal.
   * @returns The result's text.
   *
   * @example Reading the algorithm log
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const { dataset, algorithm, environment } = sandbox.computeExample();
   * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
   * const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 100 });
   * const index = done.results!.findIndex((r) => r.type === "algorithmLog");
   * console.log(await node.resultText(done, index, { signer }));
   * ```
   */
  resultText(job: ComputeJob, index: number, options: ResultTextOptions): Promise<string> {
    checkCall("OceanNode.resultText", options);
    return compute.resultText(this, { ...options, job, index });
  }

  /**
   * Asks the node for the provider fee and datatoken of a download-type
   * service, to order before downloading (step 1 of file access; unsigned).
   * The answer is returned as received.
   *
   * @param parameters The DID, service id, consumer and fee validity.
   * @returns The provider fee object, as the node answered.
   *
   * @example Before ordering
   * ```ts ignore (needs a datatoken and provider fee from a chain: tests/chain runs it on anvil)
   * const { providerFee, datatoken } = await node.initialize({ did, serviceId, consumer: signer.address });
   * ```
   */
  initialize(parameters: InitializeParameters): Promise<InitializeReturnType> {
    return files.initialize(this, parameters);
  }

  /**
   * Downloads a file of an ordered download-type asset
   * (`GET /api/services/download`, signed `download`). The status is checked
   * before anything is saved (a 401 text body is an `AuthError` and no file
   * appears), the body is streamed to a temporary file and renamed when
   * complete, and with `verify` its size and SHA-256 are checked against the
   * node's fileInfo first.
   *
   * @param parameters The DID, service id, order transaction, signer and folder.
   * @returns Where the file was saved, its size and SHA-256.
   *
   * @example Downloading an ordered file
   * ```ts ignore (needs the transaction of an order paid on a chain: tests/chain runs it on anvil)
   * const file = await node.download({ did, serviceId, txId, signer, dir: "data", verify: true });
   * ```
   */
  download(parameters: DownloadParameters): Promise<DownloadReturnType> {
    return files.download(this, parameters);
  }

  /**
   * Encrypts data with the node's key (a file list, or a whole DDO before
   * publishing); only this node can decrypt it. Signed (`encrypt`), sent once.
   *
   * @param data Bytes, text or a JSON value (sent as its JSON text).
   * @param options The signer.
   * @returns The node's `0x`-prefixed lowercase hex string.
   *
   * @example Sealing a file list
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const url = "https://data.example/weather.csv";
   * const files = await node.encrypt([{ type: "url", url, method: "GET" }], { signer });
   * console.log(files.length > 0);
   * ```
   */
  encrypt(data: EncryptInput, options: EncryptOptions): Promise<string> {
    return files.encrypt(this, data, options);
  }

  /**
   * Asks the node to check a DDO before publishing; with a signer the node
   * also signs it. Validation errors come back as data,
   * `{ valid: false, errors }`, not exceptions; other failures throw.
   *
   * @param ddo The DDO.
   * @param options A signer for the node's signature.
   * @returns The verdict, with the node's signature or its messages.
   *
   * @example Checking before publishing
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const [first] = (await node.searchAssets({ type: "dataset" })).objects() as { did: string }[];
   * const ddo = await node.ddo(first.did);
   * const verdict = await node.validateDdo(ddo, { signer });
   * if (!verdict.valid) console.log(verdict.errors);
   * ```
   */
  /**
   * Node-to-node decryption (`POST /api/services/decrypt`): asks this node to
   * open a DDO it encrypted, as another node's indexer does. Only the node
   * itself and its authorised decrypters may; any other address is an
   * `AuthError` naming it. The request is signed as ocean-node 1.0 and later
   * check it (address + nonce + `decryptDDO`, as every signed request; the
   * spec does not show the message); a node before 1.0, which answers 400 to
   * that, is sent its own message once more.
   *
   * @param parameters The decrypter's signer, the chain, and the encrypted
   *   document (with its flags and hash) or the transaction that published it.
   * @returns The decrypted DDO as the node's text.
   *
   * @example Open a document the node sealed
   * ```ts ignore (needs a decrypter key the node trusts)
   * const sealed = await node.encrypt(ddo, { signer });
   * const text = await node.decrypt({ signer: decrypter, chainId: 11155111, encryptedDocument: sealed });
   * ```
   */
  decrypt(parameters: DecryptParameters): Promise<string> {
    return files.decrypt(this, parameters);
  }

  /**
   * Asks the node whether a DDO is valid (`POST
   * /api/aquarius/assets/ddo/validate`) before it is published. Without a
   * signer the node only checks; with one it also signs the DDO, which spends
   * a nonce, so that request is not retried. A refusal is a result
   * (`valid: false` with the node's messages), not an error.
   *
   * @example Check a DDO before publishing it
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const [first] = (await node.searchAssets({ type: "dataset" })).objects() as { did: string }[];
   * const ddo = await node.ddo(first.did);
   * const result = await node.validateDdo(ddo);
   * if (!result.valid) console.log(result.errors.join("\n"));
   * ```
   */
  validateDdo(
    ddo: Ddo | Record<string, unknown>,
    options: ValidateDdoOptions = {},
  ): Promise<ValidateDdoResult> {
    return files.validateDdo(this, ddo, options);
  }

  /**
   * Asks the node for a bearer token (`POST /api/services/auth/token`,
   * signed `createAuthToken` once), the spec's alternative to signing each
   * request. The token is registered as a secret: it appears in no error,
   * log, cache file or output, and the returned object prints as its address.
   * It is sent only to this node; `jobs(address, { includeMetrics: true,
   * token })` uses it in place of a signature.
   *
   * @param parameters The signer, and optionally `validUntil` and `chainId`.
   * @returns The token, for the signer's address at this node.
   *
   * @example Metrics without signing each request
   * ```ts
   * import { startOceanSandbox } from "../sandbox/ocean/mod.ts";
   * import { SANDBOX_WALLET_KEY } from "../sandbox/ocean/compute/mod.ts";
   * import { signerFromPrivateKey } from "./signer.ts";
   * await using sandbox = startOceanSandbox({ count: 20 });
   * const node = new OceanNode(sandbox.url, { progress: false });
   * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
   * const token = await node.createAuthToken({ signer });
   * const jobs = await node.jobs(signer.address, { includeMetrics: true, token });
   * console.log(jobs.numRows());
   * ```
   */
  createAuthToken(parameters: CreateAuthTokenParameters): Promise<AuthToken> {
    return files.createAuthToken(this, parameters);
  }
}
