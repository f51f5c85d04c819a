/**
 * A local Ocean node that follows the spec for the catalogue, compute and
 * file-access endpoints, with seeded realistic DDOs, so the demo, the
 * notebooks and the tests run offline. One handler per endpoint; fault
 * switches named after the fault. The node holds one nonce store, one list
 * of environments (with one free allowlist) and one notion of each asset's
 * files, and the compute routes use those, never copies.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";
import { serveLocal } from "../_serve.ts";
import { handleDdo, handleInfo, handleNonce, handleState } from "./_asset_handlers.ts";
import { type ComputeExample, findComputeExample } from "./_compute_example.ts";
import { handleEnvironments } from "./_compute_handlers.ts";
import { type AssetOnChain, moveAssetOnChain } from "./_on_chain.ts";
import { handleFile, handleFileInfo, type SandboxFile, serviceFiles } from "./_file_handlers.ts";
import { handleQuery } from "./_query_handler.ts";
import { createState, eventTx, type OceanFaults, text } from "./_state.ts";
import { SEED_SERVICE_ENDPOINT, seedAssets } from "./assets_seed.ts";
import { heldForm } from "./_credential_form.ts";
import { extraFields, type SandboxMode, shapesSeed, variantOf } from "../_strictness.ts";
import { unlistedInRequest, type UnlistedUse } from "./_spec_parameters.ts";
import { nodeServiceEndpoints } from "./_service_endpoints.ts";
import {
  type ComputeHandlersOptions,
  type ComputeRoutes,
  createComputeHandlers,
  SANDBOX_WALLET_ADDRESS,
} from "./compute/create_compute_handlers.ts";
import { NonceStore } from "./compute/nonce_store.ts";
import {
  type SandboxEnvironment,
  type SandboxGpu,
  trialEnvironment,
} from "./compute/trial_environment.ts";

export type { ComputeExample } from "./_compute_example.ts";
export type { SandboxFile } from "./_file_handlers.ts";
export type { AssetOnChain } from "./_on_chain.ts";
export type { UnlistedUse } from "./_spec_parameters.ts";

/** Options of {@linkcode startOceanSandbox}. */
export interface OceanSandboxOptions {
  /** Number of seeded DDOs. Default 2,000 (use 20,000 for the bench). */
  count?: number;
  /**
   * The address the seeded assets name as the node that serves them
   * (`serviceEndpoint`); default the sandbox's own. Set it when clients reach
   * the sandbox through a front (a proxy) under another address.
   */
  serviceEndpoint?: string;
  /** Seed of the DDOs. */
  seed?: number;
  /**
   * The form of the seeded DDOs: `4.1.0` (default) or `5.0.0` (ddo.js's
   * verifiable credential, `did:ope`), as {@linkcode seedAssets} writes them.
   */
  ddoVersion?: "4.1.0" | "5.0.0";
  /** DDOs to serve instead of the seeded ones (any version). */
  ddos?: Ddo[];
  /**
   * Stored nonces by address, on top of the sandbox wallet's millisecond
   * timestamp (the timestamp-nonce trap of spec section 5).
   */
  nonces?: Record<string, string>;
  /** Addresses allowed to start free compute jobs. Default {@linkcode SANDBOX_FREE_ALLOWLIST}. */
  freeAllowlist?: string[];
  /**
   * The compute and file-access endpoints (freeCompute, GET compute,
   * computeResult, initialize, download): their options (`stepMs` sets how
   * long each job status lasts, default 2,000 ms; a demo job finishes in
   * about ten steps), or `false` for a catalogue-only node. Default on.
   */
  compute?: ComputeHandlersOptions | false;
  /** Most requests answered (a guard against runaway loops). */
  maxRequests?: number;
  /** The port to listen on when free, else an ephemeral one (see `serveLocal`). Default 0. */
  port?: number;
  /**
   * `strict` (default): query parameters and request body fields the spec
   * does not list are ignored, as ocean-node's routes ignore them, and
   * recorded in {@linkcode OceanSandbox.unlisted}; `lenient` (demos) does
   * not record them.
   */
  mode?: SandboxMode;
  /**
   * Picks the "not shown" shapes: a seed other than 0 adds fields the spec
   * does not list to NodeInfo and every DDO sent. Where ocean-node's code and
   * the spec disagree, seed 0 answers as the node's code does and odd seeds
   * as the spec does: `GET /` without `serviceEndpoints`, free and paid
   * starts with the short `jobId`, `indexedMetadata.event.tx` for `txid`.
   * Default from `TIDEPOOL_SANDBOX_SEED`, else 0.
   */
  shapesSeed?: number;
}

/** How a published asset goes through the sandbox indexer. */
export interface PublishOptions {
  /** State requests answered with the empty 404 before the indexer has seen it. Default 0. */
  pollsBeforeSeen?: number;
  /** The indexer rejects it with this error text. */
  rejectWith?: string;
  /** Transaction id of the publication. Default: the DDO's event tx. */
  txId?: string;
}

/** A running sandbox node. */
export interface OceanSandbox extends OceanFaults {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * The DDOs the node serves (seeded), in publication order; a 5.0.0 one
   * with its asset also at the top level, as `OceanNode.ddo()` reads it.
   */
  readonly ddos: readonly Ddo[];
  /** Requests answered so far. */
  readonly requestCount: number;
  /**
   * Query parameters and body fields the spec does not list, each request
   * that sent some (strict mode only): the node ignored them, as ocean-node
   * does; a test of a client asserts its client sent none.
   */
  readonly unlisted: readonly UnlistedUse[];
  /** Adds an asset as if just published; see {@linkcode PublishOptions}. */
  publish(ddo: Ddo, options?: PublishOptions): void;
  /**
   * Rewrites an asset as published on a chain: the chain id, the data NFT,
   * each service's datatoken and the DID Ocean derives from them (the
   * SHA-256 of the NFT's checksummed address and the chain id); datasets
   * that trust it as an algorithm name the new DID. The DDO changes in
   * place, so one read from `ddos` before shows the new DID.
   *
   * @param did The asset's DID now.
   * @param onChain The chain id, the NFT and the datatoken per service id.
   * @returns The asset's DID on the chain.
   */
  moveOnChain(did: string, onChain: AssetOnChain): string;
  /** Stores a nonce for an address (in the one store signed requests are checked against). */
  setNonce(address: string, nonce: string): void;
  /** The node's nonce store. */
  readonly nonces: NonceStore;
  /** The node's compute environments (what computeEnvironments serves and jobs run in). */
  readonly environments: readonly SandboxEnvironment[];
  /** The compute routes' state (jobs, orders, faults, request log); undefined with `compute: false`. */
  readonly compute: ComputeRoutes | undefined;
  /**
   * The files of an asset's service: the bytes fileInfo describes, download
   * sends and compute jobs read. Empty for an unknown DID or service.
   */
  files(did: string, serviceId: string): SandboxFile[];
  /** A (dataset, algorithm, environment) triple this node runs as a free job. */
  computeExample(): ComputeExample;
  /** Stops the server. */
  close(): Promise<void>;
  /** Same as close, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * The DDO reads: ocean-node serves the same formatted DDO under
 * `assets/ddo/:did` and `assets/metadata/:did` (src/components/httpRoutes/aquarius.ts).
 */
const DDO_PATHS = ["/api/aquarius/assets/ddo/", "/api/aquarius/assets/metadata/"];

/** The spec's event form: `tx` where ocean-node's indexer writes `txid`. */
function specEventForm(ddo: Ddo): void {
  const event = ddo.indexedMetadata?.event;
  if (!event || event.txid === undefined) return;
  event.tx = event.txid;
  delete event.txid;
}

/**
 * The sandbox's free-tier allowlist unless given: the sandbox wallet
 * (`SANDBOX_WALLET_ADDRESS`, whose key is `SANDBOX_WALLET_KEY`) and two
 * other addresses.
 */
export const SANDBOX_FREE_ALLOWLIST: readonly string[] = [
  SANDBOX_WALLET_ADDRESS,
  "0x1bE0BbB6C7f2B4a5d0E1cB2F0c3D4E5F6a7B8C9d",
  "0x9F8e7D6c5B4a39281706f5E4d3C2b1A0f9E8d7C6",
];

/**
 * Starts the sandbox node on 127.0.0.1 with an ephemeral port.
 *
 * Endpoints: `GET /`, `GET /api/services/nonce`, `GET /api/aquarius/assets/ddo/{did}`,
 * `POST /api/aquarius/assets/metadata/query`, `GET /api/aquarius/state/ddo`,
 * `POST /api/services/fileInfo`, `GET /api/services/computeEnvironments`,
 * `GET /files/{name}`, and unless `compute: false` `POST /api/services/freeCompute`,
 * `GET /api/services/compute`, `GET /api/services/computeResult`,
 * `GET /api/services/initialize`, `GET /api/services/download`. Fault
 * switches: `botChallenge`, `fixedPageSize`, `queryFailure`,
 * `duplicateCollection` (set them on the returned object), and those of
 * `compute.faults`.
 *
 * @param options Number of DDOs, seed, nonces, allowlist, compute options.
 * @returns The running node; close it when done.
 *
 * @example A node with 50 assets
 * ```ts
 * import { startOceanSandbox } from "./start_ocean_sandbox.ts";
 * const node = startOceanSandbox({ count: 50 });
 * try {
 *   const response = await fetch(`${node.url}/`);
 *   console.log((await response.json()).version); // "4.2.0"
 * } finally {
 *   await node.close();
 * }
 * ```
 *
 * @example A free compute job that finishes in about a second
 * ```ts
 * import { OceanNode } from "../../ocean/ocean_node.ts";
 * import { signerFromPrivateKey } from "../../ocean/signer.ts";
 * import { SANDBOX_WALLET_KEY } from "./compute/mod.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 100 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await node.startFreeCompute({ signer, environment, algorithm, datasets: [dataset] });
 * const done = await node.waitForJob(signer.address, job.jobId, { pollMs: 200 });
 * const dir = await Deno.makeTempDir();
 * console.log((await node.downloadResults(done, { signer, dir })).numRows());
 * ```
 */
export function startOceanSandbox(options: OceanSandboxOptions = {}): OceanSandbox {
  // Held with the asset at the top level, so every handler reads all versions
  // alike; sent as given (see sentForm).
  const ddos = (options.ddos ??
    seedAssets({ count: options.count, seed: options.seed, ddoVersion: options.ddoVersion }))
    .map(heldForm);
  const nonces = new NonceStore({
    [SANDBOX_WALLET_ADDRESS]: String(Date.now()),
    ...options.nonces,
  });
  const seed = shapesSeed(options.shapesSeed);
  // Real nodes name their GPU freely ("myGPU", type gpu): seeds vary it, seed 0 has none.
  const gpu = variantOf<SandboxGpu | undefined>(seed, [
    undefined,
    { id: "myGPU", description: "Sandbox GPU (NVIDIA-like, 3 GiB)" },
    { id: "gpu", description: "Sandbox GPU (named as the spec names it)" },
  ]);
  const environments = [trialEnvironment(options.freeAllowlist ?? SANDBOX_FREE_ALLOWLIST, gpu)];
  // Where ocean-node's code and the spec disagree: seed 0 (and even seeds) the node's form.
  const specForm = seed % 2 === 1;
  // Seeded DDOs only: DDOs given by the caller are served as given.
  if (specForm && !options.ddos) {
    for (const ddo of ddos) specEventForm(ddo);
  }
  const state = createState(ddos, nonces, environments);
  state.extraFields = extraFields(seed);
  const fileCache = new Map<string, SandboxFile[]>();
  const files = (did: string, serviceId: string): SandboxFile[] => {
    const ddo = state.entries.get(did)?.ddo;
    if (!ddo || !ddo.services.some((s) => s.id === serviceId)) return [];
    const key = `${did}/${serviceId}`;
    let cached = fileCache.get(key);
    if (!cached) fileCache.set(key, cached = serviceFiles(ddo, serviceId));
    return cached;
  };
  const compute = options.compute === false ? undefined : createComputeHandlers({
    asset: (did) => {
      const entry = state.entries.get(did);
      return entry?.valid && entry.pendingPolls === 0 ? entry.ddo : undefined;
    },
    files,
    environments,
    nonces,
  }, { shortJobIds: specForm, pre1DecryptMessage: specForm, ...options.compute });
  state.serviceEndpoints = specForm ? undefined : nodeServiceEndpoints(compute !== undefined);
  if (compute) state.activeJobs = (id) => compute.engine.activeInEnvironment(id);

  const strict = (options.mode ?? "strict") === "strict";
  const route = async (request: Request): Promise<Response> => {
    if (state.faults.botChallenge) {
      return new Response("<!DOCTYPE html><title>Just a moment...</title>", {
        status: 403,
        headers: { "content-type": "text/html; charset=UTF-8", "cf-mitigated": "challenge" },
      });
    }
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method;
    // Ignored as the node ignores them; recorded so a client's tests can see them.
    const unlisted = strict ? await unlistedInRequest(request, url) : undefined;
    if (unlisted) state.unlisted.push(unlisted);
    if (method === "GET" && path === "/") return handleInfo(state);
    if (method === "GET" && path === "/api/services/nonce") return handleNonce(url, state);
    for (const prefix of DDO_PATHS) {
      if (method === "GET" && path.startsWith(prefix)) {
        return handleDdo(decodeURIComponent(path.slice(prefix.length)), state);
      }
    }
    if (method === "POST" && path === "/api/aquarius/assets/metadata/query") {
      return handleQuery(request, state);
    }
    if (method === "GET" && path === "/api/aquarius/state/ddo") return handleState(url, state);
    if (method === "POST" && path === "/api/services/fileInfo") {
      return handleFileInfo(request, state, files);
    }
    if (method === "GET" && path === "/api/services/computeEnvironments") {
      return handleEnvironments(url, state);
    }
    if (method === "GET" && path.startsWith("/files/")) return handleFile(path.slice(7));
    return await compute?.(request) ?? text(`Cannot ${method} ${path}`, 404);
  };

  const server = serveLocal(route, { maxRequests: options.maxRequests, port: options.port });
  state.url = server.url;
  // Seeded assets name this node (or the address it is reached by) as the
  // one that serves them, as a real node's own assets do; DDOs given by the
  // caller stay as given.
  if (!options.ddos) {
    const endpoint = options.serviceEndpoint ?? server.url;
    for (const ddo of ddos) {
      for (const service of ddo.services ?? []) {
        if (service.serviceEndpoint === SEED_SERVICE_ENDPOINT) service.serviceEndpoint = endpoint;
      }
    }
  }
  const sandbox: Omit<OceanSandbox, keyof OceanFaults> = {
    url: server.url,
    ddos,
    get requestCount() {
      return server.requestCount;
    },
    unlisted: state.unlisted,
    publish(sent, publish = {}) {
      const ddo = heldForm(sent);
      const pending = publish.pollsBeforeSeen ?? 0;
      const valid = publish.rejectWith === undefined;
      state.entries.set(ddo.id, {
        ddo,
        txId: publish.txId ?? eventTx(ddo) ?? "",
        pendingPolls: pending,
        error: publish.rejectWith ?? " ",
        valid,
      });
      if (valid && pending === 0) state.indexed.push(ddo);
    },
    moveOnChain: (did, onChain) => moveAssetOnChain(state, did, onChain),
    setNonce(address, nonce) {
      nonces.set(address, nonce);
    },
    nonces,
    environments,
    compute,
    files,
    computeExample() {
      return findComputeExample(state.indexed, environments[0].id);
    },
    close: server.close,
    [Symbol.asyncDispose]: server.close,
  };
  // Each fault switch reads and writes the state the handlers consult.
  const faults = state.faults as unknown as Record<string, unknown>;
  for (const key of Object.keys(faults)) {
    Object.defineProperty(sandbox, key, {
      get: () => faults[key],
      set: (value: unknown) => {
        faults[key] = value;
      },
      enumerable: true,
    });
  }
  return sandbox as OceanSandbox;
}
