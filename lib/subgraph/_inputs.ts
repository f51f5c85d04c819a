/**
 * Checks and conversions of the arguments of the typed helpers.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { toDate } from "../table/convert.ts";
import { dateInput, unixTimeInput } from "../table/date_input.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A checked, lower-cased address; undefined stays undefined. */
export function address(value: string | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !ADDRESS.test(value.trim())) {
    throw new TidepoolError(`Invalid ${what} address: ${JSON.stringify(value)}`, {
      hint: "Give 0x followed by 40 hexadecimal digits; any letter case is accepted",
    });
  }
  return value.trim().toLowerCase();
}

/** One address or several, as a lower-cased list. */
export function addresses(
  value: string | readonly string[] | undefined,
  what: string,
): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? [value] : [...value];
  return list.map((item) => address(item, what)!);
}

/** A time bound as Unix seconds (Dates, ISO strings, Unix seconds or milliseconds). */
export function unixSeconds(
  value: Date | string | number | undefined,
  what: string,
): number | undefined {
  if (value === undefined) return undefined;
  // Text must be ISO 8601 (01/02/2025 is refused, not read as 2 January).
  if (typeof value === "string" && !/^\s*\d+\s*$/.test(value)) {
    return Math.floor(dateInput(value, what).getTime() / 1000);
  }
  // A number (or its digits) is a Unix time only when it can be one: 20260601 is refused, not 1970.
  const date = value instanceof Date ? toDate(value) : unixTimeInput(value, what);
  if (!date) {
    throw new TidepoolError(`Invalid ${what} time: ${JSON.stringify(value)}`, {
      hint: "Give a Date, an ISO 8601 string or a Unix time",
    });
  }
  return Math.floor(date.getTime() / 1000);
}

/** JSON text parsed; other text kept as it is; null stays null. */
export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  const text = value.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

/** Length of a list; null when absent. */
export function count(value: unknown): number | null {
  return Array.isArray(value) ? value.length : null;
}
