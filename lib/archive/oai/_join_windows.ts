/**
 * The records of a windowed harvest in the order the repository's one list
 * gives them, as far as the windows can tell it. OAI-PMH leaves the order
 * of a list to the repository: many list by datestamp, Catmandu's provider
 * by identifier. Windows that each list by datestamp are joined in time
 * order (also when a window could be either, the order every earlier
 * version gave); windows that each list by identifier, and not all by
 * datestamp, are merged by identifier; any other order is joined in time
 * order, the same rows in another order than the one list.
 *
 * @module
 */

import type { OaiRecord } from "./types.ts";

/**
 * Joins the windows' records, earliest window first, in the repository's order.
 *
 * @param windows Each window's records as the repository listed them, in time order.
 * @returns Every record, in the order one list would give them where the windows tell it.
 */
export function joinWindows(windows: readonly (readonly OaiRecord[])[]): OaiRecord[] {
  const time = (record: OaiRecord) => record.datestamp?.getTime() ?? -Infinity;
  const byDatestamp = windows.every((w) => rising(w, (a, b) => time(a) <= time(b)));
  const byIdentifier = windows.every((w) => rising(w, (a, b) => a.identifier <= b.identifier));
  const joined = windows.flat();
  if (byDatestamp || !byIdentifier) return joined;
  // A stable sort of windows each sorted by identifier is their merge: a record listed in
  // two windows comes from the earlier first, as from one list that moved it.
  return joined.sort((
    a,
    b,
  ) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
}

function rising(records: readonly OaiRecord[], inOrder: (a: OaiRecord, b: OaiRecord) => boolean) {
  for (let i = 1; i < records.length; i++) if (!inOrder(records[i - 1], records[i])) return false;
  return true;
}
