/**
 * Per-host pacing: a minimum interval between request starts and a maximum
 * number of requests in flight.
 *
 * @module
 */

import { sleep } from "./sleep.ts";

/** Pacing settings for one host. */
export interface PacingOptions {
  /** Smallest gap between two request starts, in milliseconds. */
  minIntervalMs: number;
  /** Most requests in flight at once. */
  concurrency: number;
}

/**
 * Hands out slots for requests to one host. A slot is released by the
 * caller; a released slot goes straight to the next waiter, so the limit
 * holds even when new callers arrive while one is being woken.
 */
export class HostPacer {
  readonly #options: PacingOptions;
  #active = 0;
  /** When the previous request really started (performance.now). */
  #lastStart = -Infinity;
  /** Requests take turns at the interval one after another. */
  #turns: Promise<void> = Promise.resolve();
  readonly #waiters: (() => void)[] = [];

  /** @param options The interval and concurrency for this host. */
  constructor(options: PacingOptions) {
    this.#options = {
      minIntervalMs: Math.max(0, options.minIntervalMs),
      concurrency: Math.max(1, Math.floor(options.concurrency)),
    };
  }

  /** Waits for a free slot and for the interval since the previous start. */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.#active >= this.#options.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = this.#waiters.indexOf(wake);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.#waiters.push(wake);
      });
    } else {
      this.#active++;
    }
    if (this.#options.minIntervalMs === 0) return;
    // The gap is measured from the previous request's actual start, after its
    // wait: booking slots ahead would let a late timer shorten the real gap.
    const turn = this.#turns.then(async () => {
      for (;;) {
        const remaining = this.#lastStart + this.#options.minIntervalMs - performance.now();
        if (remaining <= 0) break;
        await sleep(Math.ceil(remaining), signal);
      }
      this.#lastStart = performance.now();
    });
    this.#turns = turn.catch(() => {});
    try {
      await turn;
    } catch (error) {
      this.release();
      throw error;
    }
  }

  /** Frees the slot taken by {@linkcode acquire}. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next(); // the slot passes to the waiter; #active is unchanged
    else this.#active--;
  }
}
