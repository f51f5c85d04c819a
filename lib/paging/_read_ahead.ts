/**
 * Pages requested before the walk asks for them, keyed by cursor. A page is
 * only used when the walk asks for exactly that cursor; when it goes another
 * way, what was requested ahead is cancelled, so what is read never depends
 * on the guess.
 *
 * @module
 */

interface Pending<P> {
  page: Promise<P>;
  cancel: AbortController;
}

/** The pages in flight ahead of the walk. */
export class ReadAhead<C, P> {
  readonly #fetch: (cursor: C, signal: AbortSignal) => Promise<P>;
  readonly #signal: AbortSignal;
  readonly #pending = new Map<string, Pending<P>>();
  /** The page taken from those ahead, still cancelled with the walk until the next take. */
  #taken?: AbortController;

  /**
   * @param fetch Sends one page request.
   * @param signal Cancels every request (the walk's signal).
   */
  constructor(fetch: (cursor: C, signal: AbortSignal) => Promise<P>, signal: AbortSignal) {
    this.#fetch = fetch;
    this.#signal = signal;
    // One listener, not AbortSignal.any per page: a combined signal per
    // request made whole walks measurably slower.
    signal.addEventListener("abort", () => {
      this.#taken?.abort();
      this.clear();
    }, { once: true });
  }

  /** How many pages are in flight ahead. */
  get size(): number {
    return this.#pending.size;
  }

  /** The page of a cursor: the one requested ahead, or a new request (the others are dropped). */
  take(key: string, cursor: C): Promise<P> {
    const ready = this.#pending.get(key);
    if (ready) {
      this.#pending.delete(key);
      this.#taken = ready.cancel;
      return ready.page;
    }
    this.clear();
    this.#taken = undefined;
    return this.#fetch(cursor, this.#signal);
  }

  /** Requests a page ahead unless it is already in flight; whether it was sent. */
  request(key: string, cursor: C): boolean {
    if (this.#pending.has(key) || this.#signal.aborted) return false;
    const cancel = new AbortController();
    const page = this.#fetch(cursor, cancel.signal);
    // A page dropped unread must not surface as an unhandled rejection; a
    // page that is read still throws where it is awaited.
    page.catch(() => {});
    this.#pending.set(key, { page, cancel });
    return true;
  }

  /** Cancels every page in flight ahead. */
  clear(): void {
    for (const { cancel } of this.#pending.values()) cancel.abort();
    this.#pending.clear();
  }
}
