/**
 * The records of a windowed harvest in the order the repository's one list
 * gives them, as far as the windows can tell it. OAI-PMH leaves the order
 * of a list to the repository: many list by datestamp, Catmandu's provider
 * by identifier. Windows that each list by datestamp are joined in time
 * order; windows that each list by identifier, and not all by datestamp,
 * are merged by identifier; windows that could be either are ordered as
 * the repository says when asked ({@linkcode undecided}), else in time
 * order; any other order is joined in time order, the same rows in
 * another order than the one list.
 *
 * Identifiers compare by code point, as Perl, SQL's binary collations,
 * MongoDB and Lucene (UTF-8 bytes) order them; JavaScript's `<` compares
 * UTF-16 units, which puts U+10000 and above before U+E000 to U+FFFF.
 *
 * @module
 */

import type { OaiRecord } from "./types.ts";

/** How a repository lists a window's records. */
export type ListOrder = "datestamp" | "identifier";

const time = (record: OaiRecord) => record.datestamp?.getTime() ?? -Infinity;

/**
 * Joins the windows' records, earliest window first, in the repository's order.
 *
 * @param windows Each window's records as the repository listed them, in time order.
 * @param told The repository's order where the windows could be either ({@linkcode undecided}).
 * @returns Every record, in the order one list would give them where the windows tell it.
 */
export function joinWindows(
  windows: readonly (readonly OaiRecord[])[],
  told?: ListOrder,
): OaiRecord[] {
  const orders = windows.map(orderOf);
  const byDatestamp = orders.every((o) => o === "datestamp" || o === "both");
  const byIdentifier = orders.every((o) => o === "identifier" || o === "both");
  const joined = windows.flat();
  if (!byIdentifier || (byDatestamp && told !== "identifier")) return joined;
  // A stable sort of windows each sorted by identifier is their merge: a record listed in
  // two windows comes from the earlier first, as from one list that moved it.
  return joined.sort(compareIds);
}

/**
 * Two records that tell the repository's order when it is asked to list
 * them together: the last of one window and the first of the next, the
 * later stamped with the smaller identifier, when every window rises both
 * by datestamp and by identifier (so the windows cannot tell) and the two
 * orders give other rows orders. Undefined when the windows tell.
 *
 * @param windows Each window's records as the repository listed them, in time order.
 * @returns The earlier-stamped and the later-stamped record, or undefined.
 */
export function undecided(
  windows: readonly (readonly OaiRecord[])[],
): [OaiRecord, OaiRecord] | undefined {
  if (!windows.every((w) => orderOf(w) === "both")) return undefined;
  const filled = windows.filter((w) => w.length > 0);
  for (let i = 1; i < filled.length; i++) {
    const [last, first] = [filled[i - 1].at(-1)!, filled[i][0]];
    const stamped = Number.isFinite(time(last)) && Number.isFinite(time(first));
    if (stamped && compareIds(last, first) > 0 && time(last) < time(first)) return [last, first];
  }
  return undefined;
}

/**
 * The order of a list's records: by datestamp, by identifier, both (it
 * could be either) or neither.
 *
 * @param records The records as listed.
 * @returns How they rise.
 */
export function orderOf(records: readonly OaiRecord[]): ListOrder | "both" | "neither" {
  const byDatestamp = rising(records, (a, b) => time(a) <= time(b));
  const byIdentifier = rising(records, (a, b) => compareIds(a, b) <= 0);
  return byDatestamp && byIdentifier
    ? "both"
    : byDatestamp
    ? "datestamp"
    : byIdentifier
    ? "identifier"
    : "neither";
}

/**
 * A window read again: its second reading, with each record only the first
 * reading had (a record edited meanwhile) put back after the record it
 * followed there, so that the window keeps the repository's order.
 *
 * @param first The records of the first reading, in the repository's order.
 * @param second The records of the second reading, in the repository's order.
 * @returns Every record of either reading, the second's once each.
 */
export function keepingLeftOut(first: readonly OaiRecord[], second: OaiRecord[]): OaiRecord[] {
  const again = new Set(second.map((r) => r.identifier));
  const after = new Map<string | undefined, OaiRecord[]>();
  let previous: string | undefined;
  for (const record of first) {
    if (again.has(record.identifier)) previous = record.identifier;
    else after.set(previous, [...after.get(previous) ?? [], record]);
  }
  const take = (id: string | undefined) => {
    const left = after.get(id) ?? [];
    after.delete(id);
    return left;
  };
  return [...take(undefined), ...second.flatMap((r) => [r, ...take(r.identifier)])];
}

/** Identifiers by code point (UTF-16 units remapped so that surrogates sort above U+FFFF). */
function compareIds(a: OaiRecord, b: OaiRecord): number {
  const [x, y] = [a.identifier, b.identifier];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const u = x.charCodeAt(i);
    const v = y.charCodeAt(i);
    if (u !== v) return codePointRank(u) - codePointRank(v);
  }
  return x.length - y.length;
}

/** A UTF-16 unit's place in code point order: surrogates after U+E000..U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;
}

function rising(records: readonly OaiRecord[], inOrder: (a: OaiRecord, b: OaiRecord) => boolean) {
  for (let i = 1; i < records.length; i++) if (!inOrder(records[i - 1], records[i])) return false;
  return true;
}
