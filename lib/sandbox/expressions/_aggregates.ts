/**
 * The aggregate endpoints of the sandbox (`/api/books`, `/api/stats`,
 * `/api/analytics`), computed from the same expressions the search serves.
 *
 * @module
 */

import type { StoredExpression } from "./_seed.ts";
import type { SandboxWork } from "./_works.ts";

function countBy(
  records: readonly StoredExpression[],
  key: (record: StoredExpression) => string,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) {
    const k = key(record);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

function byWork(records: readonly StoredExpression[]): Map<string, StoredExpression[]> {
  const groups = new Map<string, StoredExpression[]>();
  for (const record of records) {
    let group = groups.get(record.pid);
    if (!group) groups.set(record.pid, group = []);
    group.push(record);
  }
  return groups;
}

/** The body of `GET /api/books`. */
export function booksBody(
  works: readonly SandboxWork[],
  records: readonly StoredExpression[],
): unknown[] {
  const groups = byWork(records);
  return works.map((work) => {
    const own = groups.get(work.pid) ?? [];
    return {
      pid: work.pid,
      title: work.title,
      author: work.author,
      year: work.year,
      genre: work.genre,
      ndc: work.ndc,
      expression_count: own.length,
      emotions: countBy(own, (r) => r.emotion),
    };
  });
}

/** The body of `GET /api/stats`. */
export function statsBody(records: readonly StoredExpression[]): unknown {
  return {
    emotions: countBy(records, (r) => r.emotion),
    bodyParts: countBy(records, (r) => r.body_part),
    valences: countBy(records, (r) => r.valence),
    total: { value: records.length },
  };
}

/** The body of `GET /api/analytics`. */
export function analyticsBody(
  works: readonly SandboxWork[],
  records: readonly StoredExpression[],
): unknown {
  const groups = byWork(records);
  const emotionGroups = new Map<string, StoredExpression[]>();
  for (const record of records) {
    let group = emotionGroups.get(record.emotion);
    if (!group) emotionGroups.set(record.emotion, group = []);
    group.push(record);
  }
  return {
    booksEmotions: works.map((work) => {
      const own = groups.get(work.pid) ?? [];
      return {
        pid: work.pid,
        title: work.title,
        total: own.length,
        emotions: countBy(own, (r) => r.emotion),
      };
    }),
    emotionBodypartMatrix: [...emotionGroups].map(([emotion, own]) => ({
      emotion,
      bodyParts: countBy(own, (r) => r.body_part),
      total: own.length,
    })),
    valenceDistribution: countBy(records, (r) => r.valence),
    emotionDistribution: countBy(records, (r) => r.emotion),
    bodyPartDistribution: countBy(records, (r) => r.body_part),
  };
}
