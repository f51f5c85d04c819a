/**
 * When and how long to wait before retrying an idempotent request.
 *
 * @module
 */

/** Retry settings of a client. */
export interface RetryOptions {
  /**
   * Retries after the first attempt. Default 4. A 429 or 503 while the host
   * serves other requests of the client uses none (a busy server refusing a
   * share is retried within `maxElapsedMs`); 0 never retries.
   */
  retries?: number;
  /** First backoff ceiling in milliseconds; doubles each retry. Default 250. */
  baseDelayMs?: number;
  /** Largest single wait in milliseconds. Default 30,000. */
  maxDelayMs?: number;
  /**
   * Largest total time spent on one request from its first attempt, waits
   * included. Default 120,000.
   */
  maxElapsedMs?: number;
}

/** Retry settings with every field set. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults: 4 retries, 250 ms doubling, at most 30 s a wait and 2 min in all. */
export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxElapsedMs: 120_000,
};

/** Statuses worth another try: the server may answer differently soon. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  408,
  429,
  500,
  502,
  503,
  504,
]);

/** Completes retry options with the defaults; `false` means no retries. */
export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, retries: 0 };
  return { ...DEFAULT_RETRY, ...options };
}

/**
 * Full-jitter exponential backoff: a random wait between 0 and
 * `min(maxDelayMs, baseDelayMs * 2^retry)`.
 */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Reads `Retry-After` (delay seconds or an HTTP date) into milliseconds.
 *
 * @returns The wait, or undefined when the header is absent or unreadable.
 */
export function retryAfterMs(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Reads a wait stated in a body, as deployed Ocean nodes do on 429:
 * `Rate limit exceeded. Try again in 12 seconds.`
 *
 * @returns The wait in milliseconds, or undefined when the body states none.
 */
export function bodyWaitMs(body: string): number | undefined {
  const match = /try again in\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec|seconds?|minutes?)?/i
    .exec(body);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? "seconds").toLowerCase();
  if (unit.startsWith("m") && unit !== "minute" && unit !== "minutes") {
    return Math.ceil(amount);
  }
  if (unit.startsWith("minute")) return Math.ceil(amount * 60_000);
  return Math.ceil(amount * 1000);
}
