import type { Ddo } from "../../../ocean/ddo.ts";
import { seedAssets } from "../assets_seed.ts";
import { datasetCsv } from "./_computation.ts";
import { type ComputeContext, type ComputeFaults, type SandboxOrder, text } from "./_context.ts";
import {
  computeResultHandler,
  environmentsHandler,
  freeComputeHandler,
  jobsHandler,
  nonceHandler,
} from "./_compute_routes.ts";
import { downloadHandler, fileInfoHandler, initializeHandler } from "./_file_routes.ts";
import { JobEngine } from "./job_engine.ts";
import { NonceStore } from "./nonce_store.ts";
import { type SandboxEnvironment, trialEnvironment } from "./trial_environment.ts";

export type { ComputeFaults, SandboxOrder } from "./_context.ts";

/**
 * The sandbox wallet's private key (a well-known test key, never funded):
 * allowlisted by default, and its stored nonce starts as a millisecond
 * timestamp, as on a real node after a web client used it.
 */
export const SANDBOX_WALLET_KEY =
  "0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d";
/** The sandbox wallet's address. */
export const SANDBOX_WALLET_ADDRESS = "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1";

/** Options of {@linkcode createComputeHandlers}. */
export interface ComputeHandlersOptions {
  /** The assets the node knows; default `seedAssets({ count: 60 })`. */
  assets?: Ddo[];
  /** Addresses on the free allowlist; default the sandbox wallet. */
  allowlist?: string[];
  /** Environments; default the trial environment of spec section 8. */
  environments?: SandboxEnvironment[];
  /** Time per job status step; default 2,000 ms (tests use a few ms). */
  stepMs?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
  /** Nonce storage; default one where the sandbox wallet has a timestamp nonce. Share the node sandbox's here. */
  nonces?: NonceStore;
  /** File contents by DID; default one deterministic CSV per asset. */
  files?: Record<string, (string | Uint8Array)[]>;
  /** Order transactions the download accepts. */
  orders?: SandboxOrder[];
  /** Fault switches. */
  faults?: ComputeFaults;
  /** Whether to serve GET nonce and GET computeEnvironments too (default true). */
  serveNonceAndEnvironments?: boolean;
}

/** The route function and the state it shares, for tests to inspect and steer. */
export interface ComputeRoutes {
  /** Answers a request on one of the compute and file endpoints, or undefined. */
  (request: Request): Response | Promise<Response> | undefined;
  /** The job engine. */
  readonly engine: JobEngine;
  /** Nonce storage (set a nonce, switch `mismatchNext`). */
  readonly nonces: NonceStore;
  /** Fault switches, mutable. */
  readonly faults: ComputeFaults;
  /** Environments served. */
  readonly environments: SandboxEnvironment[];
  /** Registered orders, mutable. */
  readonly orders: SandboxOrder[];
  /** The assets known, by DID. */
  readonly assets: Map<string, Ddo>;
  /** Requests answered, method and path, in order. */
  readonly requests: { method: string; path: string }[];
  /** The content of an asset's files. */
  files(did: string): Uint8Array[];
}

const encoder = new TextEncoder();

/**
 * The sandbox node's compute and file-access endpoints, faithful to the
 * spec: signatures checked with viem against stored nonces, the free
 * allowlist and limits enforced, jobs moving through real statuses on a
 * clock and publishing real results of a summary-statistics run over the
 * dataset's CSV, `Invalid C2D Environment` for a short job id, downloads only
 * for registered orders, and fault switches (rate limit, nonce mismatch,
 * hostile file names, empty and interrupted bodies).
 *
 * @param options Assets, allowlist, clock, nonces, orders and faults.
 * @returns A route function for the node sandbox, with its state.
 *
 * @example Mounting the routes into a server
 * ```ts
 * const routes = createComputeHandlers({ stepMs: 10 });
 * const response = await routes(new Request("http://x/api/services/computeEnvironments"));
 * console.log(response?.status); // 200
 * ```
 */
export function createComputeHandlers(options: ComputeHandlersOptions = {}): ComputeRoutes {
  const assetList = options.assets ?? seedAssets({ count: 60 });
  const assets = new Map(assetList.map((ddo) => [ddo.id, ddo]));
  const fileCache = new Map<string, Uint8Array[]>();
  const files = (did: string): Uint8Array[] => {
    let contents = fileCache.get(did);
    if (!contents) {
      const given = options.files?.[did];
      contents = given
        ? given.map((item) => typeof item === "string" ? encoder.encode(item) : item)
        : [encoder.encode(datasetCsv(did))];
      fileCache.set(did, contents);
    }
    return contents;
  };
  const context: ComputeContext = {
    assets,
    environments: options.environments ??
      [trialEnvironment(options.allowlist ?? [SANDBOX_WALLET_ADDRESS])],
    nonces: options.nonces ?? new NonceStore({ [SANDBOX_WALLET_ADDRESS]: String(Date.now()) }),
    engine: new JobEngine({ stepMs: options.stepMs, now: options.now }),
    faults: options.faults ?? {},
    orders: options.orders ?? [],
    files,
    rate: { windowStart: 0, count: 0 },
  };
  const serveBasics = options.serveNonceAndEnvironments ?? true;
  const requests: { method: string; path: string }[] = [];

  const route = (request: Request): Response | Promise<Response> | undefined => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const handler = (): Response | Promise<Response | undefined> | undefined => {
      switch (key) {
        case "GET /api/services/nonce":
          return serveBasics ? nonceHandler(context, url) : undefined;
        case "GET /api/services/computeEnvironments":
          return serveBasics ? environmentsHandler(context) : undefined;
        case "POST /api/services/freeCompute":
          return freeComputeHandler(context, request);
        case "GET /api/services/compute":
          return jobsHandler(context, url);
        case "GET /api/services/computeResult":
          return computeResultHandler(context, url);
        case "GET /api/services/initialize":
          return initializeHandler(context, url);
        case "GET /api/services/download":
          return downloadHandler(context, url);
        case "POST /api/services/fileInfo":
          return fileInfoHandler(context, request);
        default:
          return undefined;
      }
    };
    const limited = OWNED.has(key) ? rateLimited(context) : undefined;
    const answer = limited ?? handler();
    if (answer === undefined) return undefined;
    requests.push({ method: request.method, path: url.pathname });
    if (answer instanceof Response) return answer;
    // fileInfo answers undefined for a body it does not own; the node sandbox then answers.
    return answer.then((response) => response ?? text(404, "Not found"));
  };
  return Object.assign(route, {
    engine: context.engine,
    nonces: context.nonces,
    faults: context.faults,
    environments: context.environments,
    orders: context.orders,
    assets,
    requests,
    files,
  });
}

const OWNED = new Set([
  "GET /api/services/nonce",
  "GET /api/services/computeEnvironments",
  "POST /api/services/freeCompute",
  "GET /api/services/compute",
  "GET /api/services/computeResult",
  "GET /api/services/initialize",
  "GET /api/services/download",
]);

/** 429 with only `Try again in N seconds.` (no Retry-After) once the window is used up. */
function rateLimited(context: ComputeContext): Response | undefined {
  const limit = context.faults.rateLimit;
  if (!limit) return undefined;
  const now = Date.now();
  const windowMs = limit.windowSeconds * 1000;
  if (now - context.rate.windowStart >= windowMs) context.rate = { windowStart: now, count: 0 };
  context.rate.count++;
  if (context.rate.count <= limit.requests) return undefined;
  const seconds = Math.max(1, Math.ceil((context.rate.windowStart + windowMs - now) / 1000));
  return text(429, `Try again in ${seconds} seconds.`);
}
