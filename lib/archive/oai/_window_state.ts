/**
 * What a windowed harvest keeps of each window, and where: the window as
 * the lanes walk it, the windows of an interrupted harvest read back from
 * the state file and their spools, a finished window's spool, and the end
 * of the harvest (its high-water mark kept, the spools removed).
 *
 * @module
 */

import { writeOwnFile } from "../../fs/own_file.ts";
import { parseUtc } from "./_dates.ts";
import type { HarvestRun } from "./_harvest_pages.ts";
import {
  type HarvestState,
  raiseHighWater,
  readSpool,
  removeWindowSpools,
  saveState,
  spoolOf,
  type WindowState,
} from "./_state.ts";
import type { HarvestPage, OaiRecord } from "./types.ts";

/** One window being harvested. */
export interface Window extends WindowState {
  startMs: number;
  endMs: number;
  /** The window's records, in the repository's order. */
  got: OaiRecord[];
  /** Its list, open from its first page on; nothing is asked for until the next page is. */
  pages?: AsyncGenerator<HarvestPage>;
  /** Whether its list has been read to its end. */
  ended?: boolean;
  /** Records it holds, by its first page's completeListSize (unknown when not said). */
  size?: number;
  /** How many times the window it came from was cut for being long. */
  depth?: number;
  /** The list's size as its latest page said it. */
  said?: number;
  /** Whether it was read again for that. */
  reread?: boolean;
}

/** The end of a windowed harvest: its high-water mark kept, the window spools removed. */
export async function complete(path: string, state: HarvestState, windows: readonly Window[]) {
  let latest = -Infinity;
  let latestText: string | null = null;
  let atLatest: string[] = [];
  for (const w of windows) {
    for (const record of w.got) {
      const ms = record.datestamp?.getTime();
      if (ms === undefined) continue;
      if (ms > latest) {
        latest = ms;
        latestText = record.datestampText || latestText;
        atLatest = [record.identifier];
      } else if (ms === latest) atLatest.push(record.identifier);
    }
  }
  raiseHighWater(state, latestText, atLatest);
  Object.assign(state, {
    inProgress: false,
    windows: undefined,
    completedAt: new Date().toISOString(),
  });
  await saveState(path, state);
  await removeWindowSpools(path, windows);
}

/** The windows of an interrupted harvest: finished ones read back from their spools. */
export async function resumed(
  run: HarvestRun,
  saved: readonly WindowState[],
  granule: number,
  earliestMs: number,
): Promise<Window[]> {
  const out: Window[] = [];
  for (const w of saved) {
    const until = parseUtc(w.until ?? undefined)?.getTime();
    const window: Window = {
      ...w,
      startMs: parseUtc(w.from ?? undefined)?.getTime() ?? earliestMs,
      endMs: until === undefined ? floorTo(Date.now(), granule) + granule : until + granule,
      got: [],
    };
    if (w.done) {
      window.got = await readSpool(spoolOf(run.statePath!, w), w.records);
      window.ended = true;
    }
    out.push(window);
  }
  return out;
}

/** Writes a finished window's records beside the state file. */
export async function writeSpool(path: string, records: readonly OaiRecord[]): Promise<void> {
  let text = "";
  for (const { datestamp: _, ...rest } of records) text += JSON.stringify(rest) + "\n";
  await writeOwnFile(path, text);
}

/** `ms` down to a whole granule. */
export function floorTo(ms: number, granule: number): number {
  return Math.floor(ms / granule) * granule;
}
