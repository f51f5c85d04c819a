/**
 * Reshapes the service's count objects (`{category: count}`) and matrices
 * into long-form records, largest counts first, for the column schemas.
 *
 * @module
 */

import { ProtocolError } from "../errors/errors.ts";

/** Reads a `{key: count}` object; anything else is a protocol error naming the field. */
export function countObject(value: unknown, field: string): Record<string, number> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ProtocolError(`Expression search sent ${field} in an unexpected shape`, {
      details: JSON.stringify(value).slice(0, 200),
      hint: "The service may have changed its interface; report it with the URL",
    });
  }
  return value as Record<string, number>;
}

/** `{a: 3, b: 5}` to `[{[name]: "b", count: 5}, {[name]: "a", count: 3}]`. */
export function longCounts(value: unknown, name: string, field: string): Record<string, unknown>[] {
  return Object.entries(countObject(value, field))
    .map(([key, count]) => ({ [name]: key, count }))
    .sort((a, b) => Number(b.count) - Number(a.count));
}

/** Rows of `{...keys, <name>: key, count}` from a list of records holding a count object. */
export function longFromList(
  list: unknown,
  field: string,
  countsOf: (item: Record<string, unknown>) => unknown,
  keysOf: (item: Record<string, unknown>) => Record<string, unknown>,
  name: string,
): Record<string, unknown>[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    throw new ProtocolError(`Expression search sent ${field} in an unexpected shape`, {
      details: JSON.stringify(list).slice(0, 200),
      hint: "The service may have changed its interface; report it with the URL",
    });
  }
  const rows: Record<string, unknown>[] = [];
  for (const item of list as Record<string, unknown>[]) {
    const keys = keysOf(item);
    for (const [key, count] of Object.entries(countObject(countsOf(item), field))) {
      rows.push({ ...keys, [name]: key, count });
    }
  }
  return rows;
}
