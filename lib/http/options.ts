/**
 * The options every tidepool client constructor takes, in one shape.
 *
 * @module
 */

import type { CacheOptions } from "./cache.ts";
import type { ProgressOption } from "../progress/progress.ts";
import type { RetryOptions } from "./retry.ts";
import type { OptionRules } from "../options/check_options.ts";

/**
 * Options shared by `OceanNode`, `Subgraph`, `Archive` and
 * `ExpressionSearch`.
 */
export interface ClientOptions {
  /** The fetch implementation; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Time limit of one attempt, body included, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Retry settings for idempotent requests, or `false` for none. */
  retry?: RetryOptions | false;
  /** Smallest gap between two request starts to one host, in milliseconds. */
  minIntervalMs?: number;
  /** Most requests in flight to one host. */
  concurrency?: number;
  /**
   * The record/replay cache. Left out, the client takes the one
   * `TIDEPOOL_CACHE_MODE` and `TIDEPOOL_CACHE_DIR` ask for (none when unset);
   * `false` means none whatever the environment says.
   */
  cache?: CacheOptions | false;
  /** Where progress goes: automatic (default), off, or a function of your own. */
  progress?: ProgressOption;
  /** Cancels every request of the client. */
  signal?: AbortSignal;
  /** Largest response body read into memory, in bytes. Default 256 MiB. */
  maxResponseBytes?: number;
  /** Receives warnings (stale data, shortfalls); defaults to `console.warn`. */
  warn?: (message: string) => void;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-service defaults a client applies before the user's options. */
export interface ClientDefaults {
  /** Default smallest gap between request starts. */
  minIntervalMs?: number;
  /** Default most requests in flight. */
  concurrency?: number;
}

/** The rules of the options every poll takes (`PollOptions`: `waitForJob`, `waitForIndexed`, uploads). */
export const POLL_RULES: OptionRules = { pollMs: "number", timeoutMs: "number", signal: "signal" };

/** The rules of {@linkcode ClientOptions}, which every client's own rules extend. */
export const CLIENT_OPTION_RULES: OptionRules = {
  fetch: "function",
  timeoutMs: "number",
  retry: ["object", [false]],
  minIntervalMs: "number",
  concurrency: "integer",
  cache: ["object", [false]],
  progress: ["function", "boolean", ["auto"]],
  signal: "signal",
  maxResponseBytes: "number",
  warn: "function",
  headers: "object",
};
