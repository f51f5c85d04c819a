/**
 * CSV writing for bulk import (RFC 4180): fields with a comma, a quote, a
 * line break or edge spaces are quoted, quotes doubled; rows end in CRLF;
 * text stays UTF-8 (Japanese as it is).
 *
 * @module
 */

/** One cell as CSV text: dates as ISO 8601, arrays joined with `; `, objects as JSON. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => csvCell(v)).join("; ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Quotes a field when it needs it. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes a header and rows as CSV text. */
export function toCsv(columns: string[], rows: unknown[][]): string {
  const lines = [columns, ...rows].map((row) => row.map((v) => csvField(csvCell(v))).join(","));
  return lines.join("\r\n") + "\r\n";
}
