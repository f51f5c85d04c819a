/**
 * Keeps the real gap between two request starts at or above the minimum.
 *
 * Why this exists beside lib/http's pacer: the pacer books each start slot
 * when a request asks for it (`nextStart = slot + interval`), before it
 * sleeps. When a timer fires late (a busy machine), that request starts late
 * but the next slot was booked from the planned time, so the measured gap to
 * the next start can fall below the minimum by the lateness. This wrapper of
 * `fetch` measures the actual previous start and waits the remainder. The
 * proper fix belongs in `HostPacer.acquire` (book the next slot from the
 * actual start after the sleep); until then the expression client, whose
 * spec asks for intervals, guards it here.
 *
 * @module
 */

import { sleep } from "../http/sleep.ts";

/**
 * Wraps a fetch so that calls start at least `minIntervalMs` apart.
 *
 * @param inner The fetch to call.
 * @param minIntervalMs The smallest gap between two starts.
 * @returns The wrapped fetch.
 */
export function spacedFetch(inner: typeof fetch, minIntervalMs: number): typeof fetch {
  let last = -Infinity;
  let queue: Promise<void> = Promise.resolve();
  return (input, init) => {
    const turn = queue.then(async () => {
      for (;;) {
        const remaining = last + minIntervalMs - performance.now();
        if (remaining <= 0) break;
        await sleep(Math.ceil(remaining), init?.signal ?? undefined);
      }
      last = performance.now();
    });
    queue = turn.catch(() => {});
    return turn.then(() => inner(input, init));
  };
}
