/**
 * Short, readable text for one table cell, shared by the HTML and the
 * plain-text views.
 *
 * @module
 */

/** Cell text limits. */
export interface CellLimits {
  /** Longest text shown for one cell, in characters. */
  maxChars: number;
  /** Most array elements shown before `…`. */
  maxItems: number;
}

/** Formats a cell: dates as ISO, arrays as `[a, b, … +3]`, long text shortened. */
export function formatCell(value: unknown, limits: CellLimits): string {
  return shorten(cellText(value, limits), limits.maxChars);
}

function cellText(value: unknown, limits: CellLimits): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? "Invalid Date"
      : value.toISOString().replace(".000Z", "Z");
  }
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) {
    const shown = value.slice(0, limits.maxItems).map((item) =>
      typeof item === "string" ? item : cellText(item, limits)
    );
    const more = value.length > limits.maxItems ? `, … +${value.length - limits.maxItems}` : "";
    return `[${shown.join(", ")}${more}]`;
  }
  if (typeof value === "object") {
    try {
      return JSON.stringify(value, (_key, item) => typeof item === "bigint" ? `${item}` : item);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

/** Cuts text to `max` characters (by code point, so Japanese text stays whole). */
export function shorten(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? `${points.slice(0, max - 1).join("")}…` : text;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}
