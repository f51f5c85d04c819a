/**
 * Where a windowed harvest cuts its range: evenly at first, then where the
 * records are. The bounds rise, fall on the granule, keep the outer ends,
 * and share the records out evenly when they are spread evenly in a span.
 */

import assert from "node:assert/strict";
import { balancedCuts, evenCuts, splitCuts } from "../../../lib/archive/oai/_window_cuts.ts";

const SECOND = 1000;
const DAY = 86_400_000;

/** Records between each pair of bounds, for spans with evenly spread records. */
function shares(bounds: number[], spans: { startMs: number; endMs: number; weight: number }[]) {
  return bounds.slice(1).map((end, i) =>
    spans.reduce((sum, s) => {
      const overlap = Math.max(0, Math.min(end, s.endMs) - Math.max(bounds[i], s.startMs));
      return sum + (s.weight * overlap) / (s.endMs - s.startMs);
    }, 0)
  );
}

function assertBounds(bounds: number[], startMs: number, endMs: number, granule: number) {
  assert.equal(bounds[0], startMs);
  assert.equal(bounds.at(-1), endMs);
  for (let i = 1; i < bounds.length; i++) {
    assert.ok(bounds[i] > bounds[i - 1], `bound ${i} does not rise: ${bounds}`);
    assert.equal((bounds[i] - startMs) % granule, 0, `bound ${i} is off the granule`);
  }
}

Deno.test("even cuts: equal stretches of whole granules, never more than the granules", () => {
  const bounds = evenCuts(0, 4 * DAY, 4, DAY);
  assert.deepEqual(bounds, [0, DAY, 2 * DAY, 3 * DAY, 4 * DAY]);
  assert.deepEqual(evenCuts(0, 2 * SECOND, 8, SECOND), [0, SECOND, 2 * SECOND]);
  const odd = evenCuts(5 * SECOND, 12 * SECOND, 3, SECOND);
  assertBounds(odd, 5 * SECOND, 12 * SECOND, SECOND);
  assert.equal(odd.length, 4);
});

Deno.test("balanced cuts: uneven windows become windows holding as many records each", () => {
  // The bench's shape: four equal stretches of time holding 5,400, 5,900, 5,800 and 3,200.
  const spans = [5_400, 5_900, 5_800, 3_200].map((weight, i) => ({
    startMs: i * 400 * DAY,
    endMs: (i + 1) * 400 * DAY,
    weight,
  }));
  const bounds = balancedCuts(spans, 4, SECOND);
  assertBounds(bounds, 0, 1_600 * DAY, SECOND);
  assert.equal(bounds.length, 5);
  for (const share of shares(bounds, spans)) assert.ok(Math.abs(share - 5_075) < 1, `${share}`);
});

Deno.test("balanced cuts: empty stretches take no window of their own", () => {
  const spans = [
    { startMs: 0, endMs: 10 * DAY, weight: 0 },
    { startMs: 10 * DAY, endMs: 20 * DAY, weight: 800 },
    { startMs: 20 * DAY, endMs: 30 * DAY, weight: 0 },
  ];
  const bounds = balancedCuts(spans, 4, SECOND);
  assertBounds(bounds, 0, 30 * DAY, SECOND);
  assert.deepEqual(shares(bounds, spans), [200, 200, 200, 200]);
});

Deno.test("balanced cuts: a burst within one granule cannot be split, so fewer windows come back", () => {
  const spans = [
    { startMs: 0, endMs: SECOND, weight: 10_000 },
    { startMs: SECOND, endMs: 3 * SECOND, weight: 10 },
  ];
  const bounds = balancedCuts(spans, 8, SECOND);
  assertBounds(bounds, 0, 3 * SECOND, SECOND);
  assert.ok(bounds.length <= 4, `${bounds}`);
});

Deno.test("balanced cuts: nothing to share, or one part, keeps the range whole", () => {
  const spans = [{ startMs: 0, endMs: DAY, weight: 0 }, {
    startMs: DAY,
    endMs: 2 * DAY,
    weight: 0,
  }];
  assert.deepEqual(balancedCuts(spans, 4, SECOND), [0, 2 * DAY]);
  assert.deepEqual(balancedCuts([{ startMs: 0, endMs: DAY, weight: 9 }], 1, SECOND), [0, DAY]);
});

Deno.test("split cuts: a second half the first page shares is set apart; else even stretches", () => {
  const start = 1_000 * SECOND;
  const end = 2_000 * SECOND;
  const bulk = 1_500 * SECOND;
  const page = [
    ...Array.from({ length: 40 }, (_, i) => start + i * SECOND),
    ...Array.from({ length: 60 }, () => bulk + 250), // within the same second
  ];
  assert.deepEqual(splitCuts(start, end, 4, SECOND, page), [start, bulk, bulk + SECOND, end]);
  // Bunched at the window's start: the first second, then the rest.
  const atStart = Array.from({ length: 100 }, () => start);
  assert.deepEqual(splitCuts(start, end, 4, SECOND, atStart), [start, start + SECOND, end]);
  // Spread out, or bunched outside the window (a page not in datestamp order): even stretches.
  const spread = Array.from({ length: 100 }, (_, i) => start + i * 7 * SECOND);
  assert.deepEqual(splitCuts(start, end, 4, SECOND, spread), evenCuts(start, end, 4, SECOND));
  const outside = Array.from({ length: 100 }, () => end + 5 * SECOND);
  assert.deepEqual(splitCuts(start, end, 4, SECOND, outside), evenCuts(start, end, 4, SECOND));
  // Days: one day holding half the page is that day alone.
  const days = [...Array.from({ length: 10 }, (_, i) => i * DAY), ...Array(10).fill(20 * DAY + 5)];
  assert.deepEqual(splitCuts(0, 40 * DAY, 4, DAY, days), [0, 20 * DAY, 21 * DAY, 40 * DAY]);
});
