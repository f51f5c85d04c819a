import {
  type ChainOrderHooks,
  type ComputeContext,
  type ComputeFaults,
  type ComputeNode,
  type SandboxOrder,
  text,
} from "./_context.ts";
import { computeResultHandler, freeComputeHandler, jobsHandler } from "./_compute_routes.ts";
import { downloadHandler, initializeHandler } from "./_file_routes.ts";
import { initializeComputeHandler, paidComputeHandler } from "./_paid_routes.ts";
import { decryptHandler, encryptHandler, validateHandler } from "./_publish_routes.ts";
import { authTokenHandler } from "./_auth_routes.ts";
import {
  deleteComputeHandler,
  stopComputeHandler,
  streamableLogsHandler,
} from "./_job_control_routes.ts";
import { AuthTokens } from "./auth_tokens.ts";
import { JobEngine } from "./job_engine.ts";
import type { NonceStore } from "./nonce_store.ts";

export type {
  ChainOrderHooks,
  ComputeFaults,
  ComputeNode,
  EscrowHooks,
  SandboxOrder,
} from "./_context.ts";

/**
 * The sandbox wallet's private key (a well-known test key, never funded):
 * allowlisted by default, and its stored nonce starts as a millisecond
 * timestamp, as on a real node after a web client used it.
 */
export const SANDBOX_WALLET_KEY =
  "0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d";
/** The sandbox wallet's address. */
export const SANDBOX_WALLET_ADDRESS = "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1";

/** Options of {@linkcode createComputeHandlers}: what is the compute part's own. */
export interface ComputeHandlersOptions {
  /** Time per job status step; default 2,000 ms (a demo uses 100 to 300, tests a few ms). */
  stepMs?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
  /** Order transactions the download accepts. */
  orders?: SandboxOrder[];
  /** Fault switches. */
  faults?: ComputeFaults;
  /** Addresses besides the node itself that may call decrypt (403 for any other). */
  authorizedDecrypters?: string[];
  /**
   * A free or paid start answers the short `jobId`, as the spec says, not
   * `<cluster hash>-<jobId>` as ocean-node's engine does
   * (src/components/c2d/compute_engine_docker.ts), and the job list reads
   * a job id as the spec does (matched as sent, consumerAddress required),
   * not as ocean-node's status command (src/components/core/compute/getStatus.ts).
   * Default false.
   */
  shortJobIds?: boolean;
  /**
   * Decrypt checks the signed message of ocean-node before 1.0
   * (`(transactionId || dataNftAddress) + decrypterAddress + chainId + nonce`,
   * 400 when it does not match), not today's signed request
   * (`decrypterAddress + nonce + "decryptDDO"`, 401). Default false.
   */
  pre1DecryptMessage?: boolean;
}

/** The route function and the state it shares, for tests to inspect and steer. */
export interface ComputeRoutes {
  /** Answers a request on one of the compute and file endpoints, or undefined. */
  (request: Request): Response | Promise<Response> | undefined;
  /** The job engine. */
  readonly engine: JobEngine;
  /** The node's nonce store (set a nonce, switch `mismatchNext`). */
  readonly nonces: NonceStore;
  /** Fault switches, mutable. */
  readonly faults: ComputeFaults;
  /** Registered orders, mutable. */
  readonly orders: SandboxOrder[];
  /** Requests answered, method and path, in order. */
  readonly requests: { method: string; path: string }[];
  /** Signs provider fees and checks orders on a chain from now on (undefined: the `orders` list again). */
  useChain(hooks: ChainOrderHooks | undefined): void;
}

/**
 * The sandbox node's compute and file-access endpoints (freeCompute, GET
 * compute, computeResult, initialize, download, and with a chain
 * initializeCompute and paid compute), faithful to the spec:
 * signatures checked with viem against the node's stored nonces, the free
 * allowlist and limits of the node's environments enforced, jobs moving
 * through real statuses on a clock and publishing real results of a
 * summary-statistics run over the dataset's own files, `Invalid C2D
 * Environment` for a short job id, downloads only for registered orders, and
 * fault switches (rate limit, nonce mismatch, hostile file names, empty and
 * interrupted bodies). `startOceanSandbox` mounts them; they hold no copy of
 * the node's assets, files, environments or nonces.
 *
 * @param node The node's assets, files, environments and nonce store.
 * @param options Clock, orders and faults.
 * @returns A route function for the node sandbox, with its state.
 *
 * @example Mounting the routes over a node's data
 * ```ts
 * import { NonceStore } from "./nonce_store.ts";
 * import { trialEnvironment } from "./trial_environment.ts";
 * const routes = createComputeHandlers({
 *   asset: () => undefined,
 *   files: () => [],
 *   environments: [trialEnvironment([])],
 *   nonces: new NonceStore(),
 * }, { stepMs: 10 });
 * const response = await routes(
 *   new Request("http://x/api/services/compute?consumerAddress=0x0000000000000000000000000000000000000001"),
 * );
 * console.log(response?.status); // 200
 * ```
 */
export function createComputeHandlers(
  node: ComputeNode,
  options: ComputeHandlersOptions = {},
): ComputeRoutes {
  const context: ComputeContext = {
    asset: (did) => node.asset(did),
    files: (did, serviceId) => node.files(did, serviceId),
    environments: node.environments,
    nonces: node.nonces,
    engine: new JobEngine({ stepMs: options.stepMs, now: options.now }),
    faults: options.faults ?? {},
    orders: options.orders ?? [],
    rate: { windowStart: 0, count: 0 },
    decrypters: options.authorizedDecrypters ?? [],
    tokens: new AuthTokens(),
    shortJobIds: options.shortJobIds ?? false,
    pre1DecryptMessage: options.pre1DecryptMessage ?? false,
  };
  const requests: { method: string; path: string }[] = [];

  const route = (request: Request): Response | Promise<Response> | undefined => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const handler = HANDLERS[key];
    if (!handler) return undefined;
    requests.push({ method: request.method, path: url.pathname });
    return rateLimited(context) ?? handler(context, url, request);
  };
  return Object.assign(route, {
    engine: context.engine,
    nonces: context.nonces,
    faults: context.faults,
    orders: context.orders,
    requests,
    useChain(hooks: ChainOrderHooks | undefined) {
      context.chain = hooks;
    },
  });
}

type Handler = (
  context: ComputeContext,
  url: URL,
  request: Request,
) => Response | Promise<Response>;

const HANDLERS: Record<string, Handler> = {
  "POST /api/services/freeCompute": (context, _url, request) =>
    freeComputeHandler(context, request),
  "POST /api/services/initializeCompute": (context, _url, request) =>
    initializeComputeHandler(context, request),
  "POST /api/services/compute": (context, _url, request) => paidComputeHandler(context, request),
  "GET /api/services/compute": (context, url, request) => jobsHandler(context, url, request),
  "GET /api/services/computeResult": (context, url) => computeResultHandler(context, url),
  "PUT /api/services/compute": (context, url) => stopComputeHandler(context, url),
  "DELETE /api/services/compute": deleteComputeHandler,
  "GET /api/services/computeStreamableLogs": (context, url) => streamableLogsHandler(context, url),
  "GET /api/services/initialize": (context, url) => initializeHandler(context, url),
  "GET /api/services/download": (context, url) => downloadHandler(context, url),
  "POST /api/services/encrypt": encryptHandler,
  "POST /api/aquarius/assets/ddo/validate": validateHandler,
  "POST /api/services/decrypt": decryptHandler,
  "POST /api/services/auth/token": authTokenHandler,
};

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
