/**
 * Requests the next offset pages before they are needed, so fetching
 * overlaps with reading and table building, and, with pacing off and
 * concurrency above one, several pages are in flight at once. The pacer of
 * lib/http still decides when each request really starts.
 *
 * @module
 */

import type { HttpResponse } from "../http/client.ts";

/** Sends one page request; the signal cancels it when the page is dropped. */
export type PageRequest = (
  offset: number,
  limit: number,
  signal: AbortSignal,
) => Promise<HttpResponse>;

/**
 * Pages requested ahead, keyed by offset and limit. A page is only used
 * when the loop asks for exactly that offset and limit; when the loop goes
 * another way (a short page, repeated rows), the pages ahead are dropped
 * and the loop asks again, so what is read never depends on the guess.
 */
export class FetchAhead {
  readonly #request: PageRequest;
  readonly #window: number;
  readonly #pending = new Map<string, { page: Promise<HttpResponse>; cancel: AbortController }>();

  /**
   * @param request Sends one page request.
   * @param window How many pages may be requested ahead of the one read.
   */
  constructor(request: PageRequest, window: number) {
    this.#request = request;
    this.#window = Math.max(0, Math.floor(window));
  }

  /** The page at `offset` of `limit` rows: the one requested ahead, or a new request. */
  take(offset: number, limit: number): Promise<HttpResponse> {
    const key = `${offset}:${limit}`;
    const ready = this.#pending.get(key);
    if (ready) {
      this.#pending.delete(key);
      return ready.page;
    }
    this.stop();
    return this.#request(offset, limit, new AbortController().signal);
  }

  /** Cancels every page requested ahead and not taken (the loop went another way, or stopped). */
  stop(): void {
    for (const { cancel } of this.#pending.values()) cancel.abort();
    this.#pending.clear();
  }

  /** Requests pages of `size` rows from `offset` up to `end`, up to the window. */
  plan(offset: number, end: number, size: number): void {
    for (let at = offset; at < end && this.#pending.size < this.#window; at += size) {
      const limit = Math.min(size, end - at);
      const key = `${at}:${limit}`;
      if (this.#pending.has(key)) continue;
      const cancel = new AbortController();
      const page = this.#request(at, limit, cancel.signal);
      // A page dropped unread must not surface as an unhandled rejection;
      // one that is read still throws where it is awaited.
      page.catch(() => {});
      this.#pending.set(key, { page, cancel });
    }
  }
}
