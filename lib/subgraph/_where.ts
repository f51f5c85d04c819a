/**
 * `where` filters: address-shaped values lower-cased (the subgraph stores
 * and matches addresses in lower case only) and cursor bounds merged with
 * the caller's own bounds on the same key, keeping the stricter one.
 *
 * @module
 */

import { checkName } from "./_document.ts";

/** A `where` filter as The Graph takes it. */
export type WhereFilter = Record<string, unknown>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Transaction hashes and compound ids that start with one (`0x<64 hex>-0x…`). */
const HEX_ID = /^0x[0-9a-fA-F]{40,}(-0x[0-9a-fA-F]{40,})*$/;

/** Lower-cases address-shaped (and hex id) strings anywhere in a filter; checks the keys. */
export function normaliseWhere(where: WhereFilter | undefined): WhereFilter {
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") {
      return ADDRESS.test(value) || HEX_ID.test(value) ? value.toLowerCase() : value;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object" && !(value instanceof Date)) {
      const out: WhereFilter = {};
      for (const [key, inner] of Object.entries(value)) {
        if (inner === undefined) continue;
        out[checkName(key, "filter key")] = walk(inner);
      }
      return out;
    }
    if (typeof value === "bigint") return value.toString();
    return value;
  };
  return (walk(where ?? {}) as WhereFilter);
}

/** Compares two cursor values: numbers, digit strings as integers, other strings by code unit. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = String(a);
  const sb = String(b);
  if (/^-?\d+$/.test(sa) && /^-?\d+$/.test(sb)) {
    const ba = BigInt(sa);
    const bb = BigInt(sb);
    return ba < bb ? -1 : ba > bb ? 1 : 0;
  }
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * The caller's filter with the cursor bounds added. When the caller already
 * bounds the same key (`createdTimestamp_gte`), the stricter bound wins, so
 * the page never leaves the range the caller asked for.
 */
export function withBounds(where: WhereFilter, bounds: WhereFilter): WhereFilter {
  const out: WhereFilter = { ...where };
  for (const [key, value] of Object.entries(bounds)) {
    const mine = out[key];
    if (mine === undefined || mine === null) {
      out[key] = value;
      continue;
    }
    const lower = /_(gt|gte)$/.test(key);
    const upper = /_(lt|lte)$/.test(key);
    const c = compareValues(value, mine);
    if (lower) out[key] = c > 0 ? value : mine;
    else if (upper) out[key] = c < 0 ? value : mine;
    else if (c !== 0) {
      // equality on both sides with different values: nothing can match
      out[key] = value;
      out[`${key}_in`] = [];
    }
  }
  return out;
}
