/**
 * Per-host pacing: a minimum interval between request starts, a cap on the
 * requests in flight, and a window below that cap that halves when the host
 * says it is overloaded (429 or 503) and grows back one request at a time.
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

/** What a pacer hands out: a slot, and the window it was granted under. */
export interface PacerSlot {
  /** The window's generation when the slot was granted: an answer to an older one does not halve it again. */
  readonly generation: number;
}

/**
 * Hands out slots for requests to one host. A slot is released by the
 * caller; a released slot goes straight to the next waiter when the window
 * allows, so the limit holds even when new callers arrive while one is
 * being woken.
 *
 * The window of requests in flight starts at the cap. A 429 or 503
 * ({@linkcode HostPacer.overloaded}) halves it (once for all the requests
 * that were in flight when it was said) and holds every new start until
 * the server's `Retry-After` has passed; each answer that is not an
 * overload then adds one request to the window per window-full of answers
 * (additive increase), back up to the cap.
 */
export class HostPacer {
  readonly #options: PacingOptions;
  #window: number;
  #active = 0;
  /** Answers since the window last grew or shrank. */
  #calm = 0;
  /** Bumped at every halving; a slot granted before it does not halve again. */
  #generation = 0;
  /** No request starts before this time (performance.now): the server's Retry-After. */
  #resumeAt = 0;
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
    this.#window = this.#options.concurrency;
  }

  /** Requests in flight to this host now. */
  get inFlight(): number {
    return this.#active;
  }

  /** The most requests the host gets at once now: the cap, or less after an overload. */
  get window(): number {
    return this.#window;
  }

  /**
   * Waits for a free slot, for the server's Retry-After, and for the interval since the previous start.
   *
   * @param signal Cancels the wait.
   * @param retry A retry waits at the head of the queue: under a server that refuses every
   *   n-th request, a retry queued behind fresh requests could be refused every time.
   */
  async acquire(signal?: AbortSignal, retry = false): Promise<PacerSlot> {
    if (this.#active >= this.#window || this.#waiters.length > 0) {
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
        if (retry) this.#waiters.unshift(wake);
        else this.#waiters.push(wake);
      });
    } else {
      this.#active++;
    }
    const slot = { generation: this.#generation };
    try {
      // A server that asked for a pause gets it from every request, not only the one it answered.
      while (this.#resumeAt > performance.now()) {
        await sleep(Math.ceil(this.#resumeAt - performance.now()), signal);
      }
      if (this.#options.minIntervalMs === 0) return slot;
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
      await turn;
      return slot;
    } catch (error) {
      this.release();
      throw error;
    }
  }

  /**
   * The host answered a request of this slot with 429 or 503: halve the
   * window (not below one) unless an answer to a request sent after the
   * last halving did so already, and hold every start for `waitMs`.
   *
   * @param slot The slot the overloaded request held.
   * @param waitMs The server's Retry-After, when it sent one.
   */
  overloaded(slot: PacerSlot, waitMs?: number): void {
    if (waitMs !== undefined && waitMs > 0) {
      this.#resumeAt = Math.max(this.#resumeAt, performance.now() + waitMs);
    }
    if (slot.generation !== this.#generation) return;
    this.#generation++;
    this.#window = Math.max(1, Math.floor(this.#window / 2));
    this.#calm = 0;
  }

  /** The host answered without an overload: the window grows by one per window-full of such answers. */
  answered(): void {
    if (this.#window >= this.#options.concurrency) return;
    if (++this.#calm < this.#window) return;
    this.#calm = 0;
    this.#window++;
    // A request may start now that the window is wider.
    if (this.#active < this.#window) this.#wakeOne();
  }

  /** Frees the slot taken by {@linkcode acquire}. */
  release(): void {
    this.#active--;
    if (this.#active < this.#window) this.#wakeOne();
  }

  #wakeOne(): void {
    const next = this.#waiters.shift();
    if (!next) return;
    this.#active++; // the slot passes to the waiter
    next();
  }
}
