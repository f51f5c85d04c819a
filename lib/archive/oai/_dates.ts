/**
 * Datestamps at a repository's granularity.
 *
 * @module
 */

/** The day granularity every repository supports. */
export const DAY = "YYYY-MM-DD";

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A Date as a datestamp at the granularity (`YYYY-MM-DD` or seconds). */
export function formatDatestamp(date: Date, granularity: string): string {
  const iso = date.toISOString();
  return granularity === DAY ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, "Z");
}

/** Whether a string is a day datestamp. */
export function isDay(text: string): boolean {
  return DAY_PATTERN.test(text);
}

/**
 * Reads a datestamp as UTC (a day, or a timestamp; a timestamp without a
 * zone is taken as UTC, as OAI-PMH and ResourceSync require UTC).
 */
export function parseUtc(text: string | undefined): Date | null {
  if (!text) return null;
  let trimmed = text.trim();
  // Some repositories (Harvard LibraryCloud) send ISO 8601's basic form, 20210311.
  const basic = /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed);
  if (basic) trimmed = `${basic[1]}-${basic[2]}-${basic[3]}`;
  const zoned = isDay(trimmed) || /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? trimmed : `${trimmed}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? null : new Date(time);
}

/**
 * Where the next incremental harvest starts: at the high-water datestamp
 * itself, at the repository's granularity. `from` is inclusive, and a
 * record may be stamped in that same second (or day) after the last run
 * asked; the records the last run already got there are dropped by
 * identifier (`HarvestState.highWaterIdentifiers`).
 */
export function nextFrom(highWater: string, granularity: string): string {
  const date = parseUtc(highWater);
  if (!date) return highWater;
  if (granularity === DAY || isDay(highWater)) return formatDatestamp(date, DAY);
  return formatDatestamp(date, granularity);
}
