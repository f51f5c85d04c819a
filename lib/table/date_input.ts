/**
 * The one reading of a date a user passes as a parameter (`from`, `since`,
 * `createdAfter`...): a `Date`, or ISO 8601 text and nothing else, so that
 * `01/02/2025` is an error rather than 2 January, and `2025-13-45` an error
 * rather than an empty table.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";

/** The forms every date parameter accepts, as said in errors. */
export const DATE_FORMS =
  "a Date, a day (2025-01-31) or an ISO 8601 time (2025-01-31T09:30:00Z, 2025-01-31T09:30:00+09:00; without a zone it is UTC)";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Reads a date parameter.
 *
 * @param value A Date or ISO 8601 text.
 * @param what The parameter, for the error (`from`, `createdAfter`).
 * @returns The instant.
 * @throws {TidepoolError} When the value is neither, or names no real day or time.
 *
 * @example A day and a zoned time
 * ```ts
 * console.log(dateInput("2025-01-31", "from").toISOString()); // 2025-01-31T00:00:00.000Z
 * console.log(dateInput("2025-01-31T09:30:00+09:00", "from").toISOString()); // 2025-01-31T00:30:00.000Z
 * ```
 */
export function dateInput(value: Date | string, what: string): Date {
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) return value;
    throw invalidDate(what, "Invalid Date");
  }
  const text = typeof value === "string" ? value.trim() : "";
  const match = ISO.exec(text);
  if (!match) throw invalidDate(what, JSON.stringify(value));
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone] =
    match;
  const fields = [year, month, day, hour, minute, second].map(Number);
  const utc = new Date(
    Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]),
  );
  // Date.UTC rolls 2025-13-45 over into 2026; a real day reads back the same.
  const real = utc.getUTCFullYear() === fields[0] && utc.getUTCMonth() === fields[1] - 1 &&
    utc.getUTCDate() === fields[2] && utc.getUTCHours() === fields[3] &&
    utc.getUTCMinutes() === fields[4] && utc.getUTCSeconds() === fields[5];
  if (!real) throw invalidDate(what, JSON.stringify(value), "it names no real day or time");
  const offset = zone === undefined || zone.toUpperCase() === "Z" ? 0 : zoneMinutes(zone);
  const ms = fraction ? Math.round(Number(fraction) * 1000) : 0;
  return new Date(utc.getTime() + ms - offset * 60_000);
}

/**
 * The start of a time window (`from`, `since`): a date as {@linkcode dateInput}
 * reads it, refused when it lies in the future, where a window can match
 * nothing (and some servers answer with an error instead).
 *
 * @param value A Date or ISO 8601 text.
 * @param what The option's name, for the error.
 * @param now The present; the clock unless given.
 * @returns The instant.
 * @throws {TidepoolError} When the date is not valid or is after now.
 *
 * @example A start in the future is refused
 * ```ts
 * try {
 *   windowStart("2099-01-01", "from", new Date("2026-06-30T00:00:00Z"));
 * } catch (error) {
 *   console.log((error as Error).message.split("\n")[0]);
 *   // Invalid from date: 2099-01-01 is in the future (now is 2026-06-30T00:00:00.000Z)
 * }
 * ```
 */
export function windowStart(value: Date | string, what: string, now = new Date()): Date {
  const date = dateInput(value, what);
  if (date.getTime() > now.getTime()) {
    const shown = typeof value === "string" ? value.trim() : date.toISOString();
    throw new TidepoolError(
      `Invalid ${what} date: ${shown} is in the future (now is ${now.toISOString()})`,
      { hint: `Give a ${what} date up to now; a window that starts later matches nothing` },
    );
  }
  return date;
}

/** Whether text is a bare ISO 8601 day (`2025-01-31`), checked as a real day. */
export function isIsoDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text.trim());
}

function zoneMinutes(zone: string): number {
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return digits.startsWith("-") ? -minutes : minutes;
}

/** 2000-01-01 and 2100-01-01, in Unix seconds: the times a number given as a date may name. */
const UNIX_FROM = 946_684_800;
const UNIX_UNTIL = 4_102_444_800;

/**
 * A number given as a time: Unix seconds or milliseconds between 2000 and
 * 2100, the only readings that cannot be a misread day. Anything else, such
 * as `20260601` (1970-08-23 in seconds), is refused, saying what it would
 * have meant and what to write instead.
 *
 * @param value The number, or its digits as text.
 * @param what What the time is for, as the error names it (`since`).
 * @returns The time.
 * @throws {TidepoolError} For a number that is neither.
 *
 * @example A Unix time in seconds
 * ```ts
 * console.log(unixTimeInput(1780272000, "since").toISOString()); // 2026-06-01T00:00:00.000Z
 * ```
 */
export function unixTimeInput(value: number | string, what: string): Date {
  const number = Number(value);
  if (Number.isFinite(number)) {
    if (number >= UNIX_FROM && number < UNIX_UNTIL) return new Date(number * 1000);
    if (number >= UNIX_FROM * 1000 && number < UNIX_UNTIL * 1000) return new Date(number);
  }
  const asSeconds = Number.isFinite(number) && Math.abs(number) < 8.64e12
    ? new Date(number * 1000).toISOString()
    : undefined;
  const digits = /^(\d{4})(\d{2})(\d{2})$/.exec(String(value).trim());
  const day = digits ? `${digits[1]}-${digits[2]}-${digits[3]}` : undefined;
  const meant = asSeconds ? `and as seconds it would be ${asSeconds}, ` : "";
  throw new TidepoolError(
    `Invalid ${what} time ${JSON.stringify(value)}: a number is read as Unix seconds or ` +
      `milliseconds, ${meant}not a time between 2000 and 2100`,
    {
      hint: day
        ? `For the day ${day}, write "${day}" (or a Date)`
        : `Give ${DATE_FORMS}, or Unix seconds such as ${UNIX_FROM}`,
    },
  );
}

function invalidDate(what: string, shown: string, why = "it is not ISO 8601"): TidepoolError {
  return new TidepoolError(`Invalid ${what} date ${shown}: ${why}`, {
    hint: `Give ${DATE_FORMS}; other forms such as 01/02/2025 are ambiguous and refused`,
  });
}
