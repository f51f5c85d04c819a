import { sleep } from "./sleep.ts";

/**
 * The options every poll of tidepool takes (`waitForJob`, `waitForIndexed`,
 * the conversion wait of `upload`), with the same names everywhere.
 */
export interface PollOptions {
  /** Time between polls, in ms. */
  pollMs?: number;
  /** Give up after this long, in ms. */
  timeoutMs?: number;
  /** Cancels the wait: the pause between polls and the poll request in flight. */
  signal?: AbortSignal;
}

/** What one poll found: the value when the wait is over, or `undefined` to poll again. */
export type PollResult<T> = { value: T } | undefined;

/** What {@linkcode pollUntil} needs besides the poll itself. */
export interface PollUntilOptions {
  /** Time between polls, in ms. */
  pollMs: number;
  /** Give up after this long, in ms; the last pause is shortened to end on time. */
  timeoutMs: number;
  /** Cancels the wait; handed to each poll so it cancels its request too. */
  signal?: AbortSignal;
  /** The error thrown when time runs out. */
  timedOut: () => Error;
}

/**
 * Polls until `poll` returns a value, `poll` throws, time runs out or the
 * signal aborts. `poll` receives the signal and must pass it to its request,
 * so an abort cancels the request in flight, not only the pause; an abort
 * leaves no timer behind.
 *
 * @param poll One poll: resolves to `{ value }` when done, `undefined` to go on.
 * @param options Interval, time limit, signal and the timeout error.
 * @returns The value of the poll that ended the wait.
 *
 * @example Waiting for a counter
 * ```ts
 * let n = 0;
 * const value = await pollUntil(() => Promise.resolve(++n === 3 ? { value: n } : undefined), {
 *   pollMs: 1,
 *   timeoutMs: 60_000, // three polls take milliseconds, even on a loaded machine
 *   timedOut: () => new Error("Too slow"),
 * });
 * console.log(value); // 3
 * ```
 */
export async function pollUntil<T>(
  poll: (signal: AbortSignal | undefined) => Promise<PollResult<T>>,
  options: PollUntilOptions,
): Promise<T> {
  const { signal } = options;
  const pollMs = Math.max(0, options.pollMs);
  const started = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    const result = await poll(signal);
    if (result) return result.value;
    const elapsed = Date.now() - started;
    if (elapsed >= options.timeoutMs) throw options.timedOut();
    await sleep(Math.min(pollMs, options.timeoutMs - elapsed), signal);
  }
}
