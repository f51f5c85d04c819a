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
 * (additive increase), back up to the cap. Retries go before fresh requests,
 * both for a slot and when a pause ends, so a request the host refused is
 * the next one it sees.
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
  /** The timer that ends the pause, while requests wait for it. */
  #pauseTimer?: ReturnType<typeof setTimeout>;
  /** When the previous request really started (performance.now). */
  #lastStart = -Infinity;
  /** Requests take turns at the interval one after another. */
  #turns: Promise<void> = Promise.resolve();
  /** Requests waiting for a slot. */
  readonly #forSlot = new Queue();
  /** Requests holding a slot, waiting for the server's pause to end. */
  readonly #forPause = new Queue();
  /** Requests the host has served (answered with a status that is not retried). */
  #served = 0;

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
   * How many requests the host has served so far: a request refused while
   * this grows was refused a share, not shut out ({@linkcode served}).
   */
  get servedCount(): number {
    return this.#served;
  }

  /**
   * Waits for a free slot, for the server's Retry-After, and for the interval since the previous start.
   *
   * @param signal Cancels the wait.
   * @param retry A retry goes before every fresh request, for the slot and after a pause: a
   *   retry queued behind fresh requests meets a server that refuses every n-th request at the
   *   same place in its count every time.
   */
  async acquire(signal?: AbortSignal, retry = false): Promise<PacerSlot> {
    if (this.#active >= this.#window || this.#forSlot.length > 0) {
      await this.#forSlot.wait(retry, signal); // the slot is passed on by release()
    } else {
      this.#active++;
    }
    const slot = { generation: this.#generation };
    try {
      // A server that asked for a pause gets it from every request, not only the one it
      // answered; when it ends, the requests start in their order, retries first.
      while (this.#resumeAt > performance.now()) {
        this.#armPause();
        await this.#forPause.wait(retry, signal, () => {
          if (this.#forPause.length === 0) this.#disarmPause();
        });
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

  /**
   * Whether a request refused now would wait for a pause the host asked for:
   * its retry then queues at once, and the pause holds it.
   */
  get pausing(): boolean {
    return this.#resumeAt > performance.now();
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

  /** The host served a request: it is accepting work, whatever it refuses besides. */
  served(): void {
    this.#served++;
  }

  /** Frees the slot taken by {@linkcode acquire}. */
  release(): void {
    this.#active--;
    if (this.#active < this.#window) this.#wakeOne();
  }

  #wakeOne(): void {
    if (this.#forSlot.length === 0) return;
    this.#active++; // the slot passes to the waiter
    this.#forSlot.wakeFirst();
  }

  /** One timer for every request waiting out the pause; it wakes them in their order. */
  #armPause(): void {
    if (this.#pauseTimer !== undefined) return;
    this.#pauseTimer = setTimeout(() => {
      this.#pauseTimer = undefined;
      // A later refusal may have moved the end: those still waiting loop and re-arm.
      this.#forPause.wakeAll();
    }, Math.max(0, Math.ceil(this.#resumeAt - performance.now())));
  }

  #disarmPause(): void {
    clearTimeout(this.#pauseTimer);
    this.#pauseTimer = undefined;
  }
}

/** Waiters in order, retries before fresh requests, each group first come, first served. */
class Queue {
  readonly #retries: (() => void)[] = [];
  readonly #fresh: (() => void)[] = [];

  get length(): number {
    return this.#retries.length + this.#fresh.length;
  }

  /** Waits to be woken; an abort leaves the queue (then `onLeave` runs) and rejects. */
  wait(retry: boolean, signal?: AbortSignal, onLeave?: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const list = retry ? this.#retries : this.#fresh;
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = list.indexOf(wake);
        if (index >= 0) list.splice(index, 1);
        onLeave?.();
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      list.push(wake);
    });
  }

  wakeFirst(): void {
    (this.#retries.shift() ?? this.#fresh.shift())?.();
  }

  wakeAll(): void {
    const all = [...this.#retries.splice(0), ...this.#fresh.splice(0)];
    for (const wake of all) wake();
  }
}
