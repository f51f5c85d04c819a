/**
 * Search over the sandbox expressions: keyword, filters, sort, facets over
 * the filtered set, paging with a maximum `limit`.
 *
 * @module
 */

import type { StoredExpression } from "./_seed.ts";

/**
 * The largest `limit` the sandbox accepts. The spec does not show one; a
 * larger limit answers 400, so clients must discover or be told the page
 * size.
 */
export const MAX_LIMIT = 100;

const SORTS = new Set(["_score", "emotion", "body_part", "intensity"]);
const INTENSITY_RANK: Record<string, number> = { low: 0, medium: 1, high: 2 };

/** A bad request: the status and the message of the `{error}` body. */
export class QueryError extends Error {}

interface Ranked {
  record: StoredExpression;
  score: number;
  index: number;
}

/** The filtered, sorted set of one query (without paging), with facets. */
export interface QueryResult {
  ranked: Ranked[];
  facets: Record<string, { key: string; count: number }[]>;
}

/** Reads a paging number, or throws a QueryError. */
export function pagingNumber(
  params: URLSearchParams,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const text = params.get(name);
  if (text === null || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new QueryError(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be a non-negative integer`
        : `${name} must be between 0 and ${max}`,
    );
  }
  return value;
}

function list(params: URLSearchParams, name: string): Set<string> | undefined {
  const text = params.get(name);
  if (text === null || text === "") return undefined;
  return new Set(text.split(",").map((value) => value.trim()).filter(Boolean));
}

/** Runs the filters, keyword and sort of a query; the caller pages. */
export function runQuery(
  records: readonly StoredExpression[],
  params: URLSearchParams,
): QueryResult {
  const sort = params.get("sort") || "_score";
  if (!SORTS.has(sort)) throw new QueryError(`sort must be one of ${[...SORTS].join(", ")}`);
  const order = params.get("order") || "desc";
  if (order !== "asc" && order !== "desc") throw new QueryError("order must be asc or desc");
  const filters: [keyof StoredExpression, Set<string> | undefined][] = [
    ["emotion", list(params, "emotion")],
    ["body_part", list(params, "body_part")],
    ["valence", list(params, "valence")],
    ["gender", list(params, "gender")],
    ["pid", list(params, "pid")],
  ];
  const active = filters.filter(([, values]) => values !== undefined) as [
    keyof StoredExpression,
    Set<string>,
  ][];
  const terms = (params.get("keyword") ?? "").split(/[\s\u3000]+/).filter(Boolean);
  const ranked: Ranked[] = [];
  records.forEach((record, index) => {
    for (const [field, values] of active) {
      if (!values.has(String(record[field]))) return;
    }
    let score = 1;
    for (const term of terms) {
      const inSurface = record.surface.includes(term);
      const inContext = record.context.includes(term);
      if (!inSurface && !inContext) return;
      score += (inSurface ? 2 : 0) + (inContext ? 1 : 0);
    }
    ranked.push({ record, score, index });
  });
  const sign = order === "asc" ? 1 : -1;
  ranked.sort((a, b) => {
    let c = 0;
    if (sort === "_score") c = a.score - b.score;
    else if (sort === "intensity") {
      c = INTENSITY_RANK[a.record.intensity] - INTENSITY_RANK[b.record.intensity];
    } else {
      const field = sort as "emotion" | "body_part";
      c = a.record[field] < b.record[field] ? -1 : a.record[field] > b.record[field] ? 1 : 0;
    }
    return c !== 0 ? sign * c : a.index - b.index; // ties keep index order
  });
  return { ranked, facets: facetsOf(ranked) };
}

function facetsOf(ranked: Ranked[]): QueryResult["facets"] {
  const fields = {
    emotions: "emotion",
    body_parts: "body_part",
    valences: "valence",
    intensities: "intensity",
    genders: "gender",
  } as const;
  const facets: QueryResult["facets"] = {};
  for (const [name, field] of Object.entries(fields)) {
    const counts = new Map<string, number>();
    for (const { record } of ranked) {
      const key = record[field];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    facets[name] = [...counts]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
  }
  return facets;
}

/** The wire form of an expression: the spec's fields, without index-only ones. */
export function wireExpression(record: StoredExpression): Record<string, unknown> {
  const { gender: _gender, position: _position, ...wire } = record;
  return wire;
}
