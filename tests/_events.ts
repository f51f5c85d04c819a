/**
 * Tests wait for events, not for durations: a held request ends when the
 * client cancels it, a step runs when the server has seen a request. Where a
 * test still needs a duration, it is a bound that only a broken client ever
 * reaches, and its margin is stated here once.
 */

/**
 * How long a test holds a request, a body or a wait that the code under test
 * must cancel. A working client cancels within microseconds of its abort or
 * its timeout; a machine loaded by other processes stretches that to a
 * second or two. Thirty seconds is more than an order of magnitude beyond
 * that, and only a client that never cancels waits it out, which the test
 * then reports as a failure instead of hanging.
 */
export const HOLD_BOUND_MS = 30_000;

/**
 * The client timeout of a test that holds a request until the code under
 * test cancels it: far beyond {@linkcode HOLD_BOUND_MS}, so that the client's
 * own timeout (30 s by default, as long as the hold) cannot end the hold and
 * pass for the cancellation.
 */
export const BEYOND_HOLD_MS = 10 * HOLD_BOUND_MS;

/** How a held request or wait ended: its signal aborted, or its bound passed. */
export type HoldEnd = "aborted" | "elapsed";

/**
 * Holds until `signal` aborts, or `boundMs` passes.
 *
 * @param signal The signal of the request being held.
 * @param boundMs How long at most (see {@linkcode HOLD_BOUND_MS}).
 * @returns How the hold ended.
 */
export function holdUntilAborted(
  signal: AbortSignal | null | undefined,
  boundMs = HOLD_BOUND_MS,
): Promise<HoldEnd> {
  if (signal?.aborted) return Promise.resolve("aborted");
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve("elapsed");
    }, boundMs);
    const onAbort = () => {
      clearTimeout(timer);
      resolve("aborted");
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Holds a request of a fake `fetch` until its signal aborts, then rejects
 * with the signal's reason as `fetch` would; records how it ended in `ends`.
 * A hold that reaches its bound resolves, so the caller's request goes on
 * and the test sees an "elapsed" end.
 *
 * @param signal The request's signal.
 * @param ends Where the end is recorded.
 */
export async function holdRequest(
  signal: AbortSignal | null | undefined,
  ends: HoldEnd[],
): Promise<void> {
  const end = await holdUntilAborted(signal);
  ends.push(end);
  if (end === "aborted") throw signal!.reason;
}

/**
 * Resolves with `promise`'s value, or with `fallback` once `boundMs` passed:
 * for a test that waits for an event which a broken implementation never
 * sends, so it fails on the fallback instead of hanging.
 *
 * @param promise The event.
 * @param fallback What a missed event resolves to.
 * @param boundMs How long at most (see {@linkcode HOLD_BOUND_MS}).
 * @returns The event's value or the fallback.
 */
export function within<T, F>(
  promise: Promise<T>,
  fallback: F,
  boundMs = HOLD_BOUND_MS,
): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<F>((resolve) => timer = setTimeout(() => resolve(fallback), boundMs));
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/**
 * Resolves after the microtasks queued so far have run (one macrotask
 * later): what an abort set off synchronously has then finished.
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A count that can be waited on: `reached(n)` resolves once `add()` was
 * called `n` times (the n-th request arrived, the n-th page was sent).
 */
export class Counter {
  #count = 0;
  #waiting: { n: number; resolve: () => void }[] = [];

  /** How many times `add` was called. */
  get count(): number {
    return this.#count;
  }

  /** Counts one more, and wakes those waiting for this count. */
  add(): number {
    this.#count++;
    this.#waiting = this.#waiting.filter((w) => {
      if (w.n > this.#count) return true;
      w.resolve();
      return false;
    });
    return this.#count;
  }

  /**
   * Resolves once the count reaches `n`.
   *
   * @param n The count to wait for.
   */
  reached(n: number): Promise<void> {
    if (this.#count >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ n, resolve }));
  }
}
