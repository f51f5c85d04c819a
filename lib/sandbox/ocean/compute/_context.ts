/**
 * What the sandbox compute handlers share: the node's assets, files,
 * environments and nonce store (never copies), the job engine, registered
 * orders and the fault switches.
 *
 * @module
 */

import type { AuthTokens } from "./auth_tokens.ts";
import type { Ddo } from "../../../ocean/ddo.ts";
import type { SandboxFile } from "../_file_handlers.ts";
import type { JobEngine } from "./job_engine.ts";
import type { NonceStore } from "./nonce_store.ts";
import type { SandboxEnvironment } from "./trial_environment.ts";

/** Fault switches, named after the fault; tests may flip them at any time. */
export interface ComputeFaults {
  /** Give the output file the hostile name `../../escape.txt`. */
  hostileResultFilename?: boolean;
  /** Result file names to use instead of the usual ones, by result type. */
  resultFilenames?: Record<string, string>;
  /** Answer 200 with an empty body to computeResult. */
  emptyResultBody?: boolean;
  /** Send half of a result body, then break the connection. */
  interruptResultBody?: boolean;
  /** Answer freeCompute with this status and body instead of starting a job. */
  startFailure?: { status: number; body: string };
  /** Sign compute provider fees that expired a minute ago (`initializeCompute`). */
  expiredProviderFees?: boolean;
  /** Lock this many times the amount initializeCompute quoted (a node asking for more). */
  escrowLockFactor?: number;
  /** Never claim an escrow lock (the payer gets it back after it expires). */
  escrowNeverClaims?: boolean;
  /** Answer initializeCompute with the assets' terms in reversed order (algorithm slot included). */
  reversedComputeTerms?: boolean;
  /** Rate limit: at most `requests` per `windowSeconds`, then 429 `Try again in N seconds.` */
  rateLimit?: { requests: number; windowSeconds: number };
}

/** How the node reaches a chain: a signed provider fee, and an order check as ocean-node does it. */
export interface ChainOrderHooks {
  /**
   * The `initialize` answer for a service: on-chain datatoken and a signed
   * provider fee, for a download or (with `environment`) a compute job.
   */
  initialize(request: {
    did: string;
    serviceId: string;
    consumer: string;
    validUntil: number;
    environment?: string;
  }): Promise<unknown>;
  /** Checks an order transaction on chain for this consumer and service (and payer, when given). */
  checkOrder(
    order: SandboxOrder & { payer?: string },
  ): Promise<{ valid: true } | { valid: false; reason: string }>;
  /** The node's Escrow actions, when its environments charge for resources. */
  escrow?: EscrowHooks;
}

/** How the node locks a job's price in the payer's escrow and claims it (ocean-node's Escrow). */
export interface EscrowHooks {
  /** The Escrow contract. */
  escrowAddress: string;
  /** The node's address: the payee the payer authorizes. */
  payee: string;
  /** Seconds the node keeps to claim after the job's longest run. */
  claimTimeoutSeconds: number;
  /**
   * Locks `amount` (base units) for `seconds` after ocean-node's checks
   * (`checked: false`, a dishonest node's: straight to the chain), or says why not.
   */
  lock(job: {
    jobId: string;
    payer: string;
    token: string;
    amount: bigint;
    seconds: number;
    checked?: boolean;
  }): Promise<{ tx: string } | { error: string }>;
  /** Claims `amount` of the job's lock (and withdraws it to the node). */
  claim(job: {
    jobId: string;
    payer: string;
    token: string;
    amount: bigint;
    proof: string;
  }): Promise<string>;
}

/** An order transaction the download endpoint accepts. */
export interface SandboxOrder {
  /** Transaction id the consumer presents. */
  txId: string;
  /** DID of the ordered asset. */
  did: string;
  /** Id of the ordered service. */
  serviceId: string;
  /** Address that placed the order. */
  consumer: string;
}

/** What the node lends the compute routes: its own catalogue, files, environments and nonces. */
export interface ComputeNode {
  /** An indexed asset by DID, or undefined. */
  asset(did: string): Ddo | undefined;
  /** The files of a service: the bytes fileInfo describes. */
  files(did: string, serviceId: string): SandboxFile[];
  /** The node's environments. */
  environments: SandboxEnvironment[];
  /** The node's nonce store. */
  nonces: NonceStore;
}

/** Shared state of the handlers. */
export interface ComputeContext extends ComputeNode {
  /** Bearer tokens issued by POST /api/services/auth/token. */
  tokens: AuthTokens;
  /** A start answers the short `jobId` (the spec's form), not `<cluster hash>-<jobId>` (ocean-node's). */
  shortJobIds: boolean;
  /** Decrypt checks ocean-node's message from before 1.0, not today's signed request. */
  pre1DecryptMessage: boolean;
  /** Addresses besides the node itself that may decrypt. */
  decrypters: string[];
  engine: JobEngine;
  faults: ComputeFaults;
  orders: SandboxOrder[];
  /** When set, provider fees are signed and orders checked on a real chain instead of `orders`. */
  chain?: ChainOrderHooks;
  rate: { windowStart: number; count: number };
}

/** A plain-text answer. */
export function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** A JSON answer. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** The JSON object a request carries, or undefined when its body is not one. */
export async function jsonBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await request.json();
    return body && typeof body === "object" && !Array.isArray(body)
      ? body as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}
