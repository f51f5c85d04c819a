/**
 * Where a windowed harvest cuts its time range: evenly before anything is
 * known, then where the records are, estimated from how many each window
 * holds (its first page's `completeListSize`), so that each list in flight
 * is about as long as the others. A list is read one page after another,
 * so the longest window sets the end of the harvest.
 *
 * @module
 */

/** A stretch of time, `startMs` to before `endMs`, holding `weight` records. */
export interface WeightedSpan {
  startMs: number;
  endMs: number;
  weight: number;
}

/**
 * Bounds cutting `startMs` to before `endMs` into at most `parts` stretches
 * of equal time, each a whole number of granules.
 *
 * @param startMs The range's start, on a granule.
 * @param endMs Its end (exclusive), on a granule.
 * @param parts How many stretches at most.
 * @param granule The repository's granularity in milliseconds.
 * @returns The bounds, first `startMs`, last `endMs`, rising.
 */
export function evenCuts(startMs: number, endMs: number, parts: number, granule: number): number[] {
  const granules = Math.max(1, Math.round((endMs - startMs) / granule));
  const count = Math.max(1, Math.min(parts, granules));
  return Array.from(
    { length: count + 1 },
    (_, i) => startMs + Math.round((granules * i) / count) * granule,
  );
}

/**
 * Bounds cutting contiguous spans into at most `parts` stretches holding
 * about as many records each, the records taken as spread evenly within a
 * span. A cut falls on a granule; two cuts in one granule are one (a burst
 * within one second cannot be split), so fewer stretches may come back.
 *
 * @param spans Contiguous spans in time order, each with the records it holds.
 * @param parts How many stretches at most.
 * @param granule The repository's granularity in milliseconds.
 * @returns The bounds, first the first span's start, last the last span's end, rising.
 */
export function balancedCuts(
  spans: readonly WeightedSpan[],
  parts: number,
  granule: number,
): number[] {
  const startMs = spans[0].startMs;
  const endMs = spans[spans.length - 1].endMs;
  const total = spans.reduce((sum, s) => sum + Math.max(0, s.weight), 0);
  if (total === 0 || parts <= 1) return [startMs, endMs];
  const bounds = [startMs];
  let before = 0; // records in the spans left behind
  let at = 0;
  for (let k = 1; k < parts; k++) {
    const target = (total * k) / parts;
    while (at < spans.length - 1 && before + Math.max(0, spans[at].weight) < target) {
      before += Math.max(0, spans[at].weight);
      at++;
    }
    const span = spans[at];
    const share = span.weight > 0 ? Math.min(1, (target - before) / span.weight) : 0;
    const ms = span.startMs + Math.round((share * (span.endMs - span.startMs)) / granule) * granule;
    if (ms > bounds[bounds.length - 1] && ms < endMs) bounds.push(ms);
  }
  bounds.push(endMs);
  return bounds;
}

/**
 * Bounds cutting a long window in parts once its first page is read: set
 * apart the granule that at least half of that page shares (records
 * bunched in one second or one day, a bulk load, which no cut can split,
 * become a window of their own), else in even stretches of time.
 *
 * @param startMs The window's start, on a granule.
 * @param endMs Its end (exclusive), on a granule.
 * @param parts How many even stretches, when nothing is bunched.
 * @param granule The repository's granularity in milliseconds.
 * @param firstPage The datestamps (ms) of the window's first page.
 * @returns The bounds, first `startMs`, last `endMs`, rising.
 */
export function splitCuts(
  startMs: number,
  endMs: number,
  parts: number,
  granule: number,
  firstPage: readonly number[],
): number[] {
  const counts = new Map<number, number>();
  for (const ms of firstPage) {
    const at = Math.floor(ms / granule) * granule;
    counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  for (const [at, count] of counts) {
    if (firstPage.length < 2 || count * 2 < firstPage.length) continue;
    if (at < startMs || at + granule > endMs) continue;
    return [...new Set([startMs, at, at + granule, endMs])];
  }
  return evenCuts(startMs, endMs, parts, granule);
}
