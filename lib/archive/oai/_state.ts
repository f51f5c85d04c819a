/**
 * The state file of a resumable, incremental harvest, written atomically
 * (a temporary file renamed over the old one), and the spool of records a
 * table harvest has received so far.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { parseUtc } from "./_dates.ts";
import type { OaiRecord } from "./types.ts";
import { appendOwnFile, readOwnFile, writeOwnFile } from "../../fs/own_file.ts";

/** What identifies a harvest: the same endpoint, verb, format and set. */
export interface HarvestIdentity {
  endpoint: string;
  verb: string;
  metadataPrefix: string;
  set: string | null;
}

/** The saved position of a harvest. */
export interface HarvestState extends HarvestIdentity {
  version: 1;
  /** Whether a harvest is under way (a rerun continues it). */
  inProgress: boolean;
  /** The window being harvested. */
  from: string | null;
  until: string | null;
  /** The token of the next page, or null to (re)start the window. */
  token: string | null;
  /** Records received in this window (repeats included), for the completeListSize check. */
  received: number;
  /** Records handed to the caller in this harvest (the spool holds as many). */
  delivered: number;
  /** Whether a token expiry restarted the window (the size check is then skipped). */
  restarted: boolean;
  /** The latest datestamp received in this harvest, as written. */
  maxDatestamp: string | null;
  /** Whether datestamps arrived in ascending order so far. */
  ordered: boolean;
  /** The identifiers received at `maxDatestamp` in this harvest. */
  maxIdentifiers?: string[];
  /** The high-water datestamp of the last complete harvest. */
  highWater: string | null;
  /**
   * The identifiers harvested at the high-water datestamp: the next run asks
   * from that datestamp (inclusive), and drops these when they come again
   * with the same datestamp.
   */
  highWaterIdentifiers?: string[];
  /** When the last complete harvest ended. */
  completedAt: string | null;
  /** The windows of a harvest with several lists in flight (`_harvest_windows.ts`). */
  windows?: WindowState[];
}

/** One `from`/`until` window of a harvest with several lists in flight. */
export interface WindowState {
  /** The window's first datestamp, or null from the beginning. */
  from: string | null;
  /** Its last datestamp (inclusive), or null up to now. */
  until: string | null;
  /** Whether it was harvested whole (its records are in its spool). */
  done: boolean;
  /** Records its spool holds. */
  records: number;
}

/** Records an incremental harvest already holds: those harvested at the high water. */
export interface HeldRecords {
  /** The high-water datestamp, in milliseconds. */
  ms: number;
  /** The identifiers harvested with that datestamp. */
  identifiers: ReadonlySet<string>;
}

/** What a saved state already holds at its high water; undefined before a complete harvest. */
export function heldRecords(state: HarvestState | undefined): HeldRecords | undefined {
  const ms = parseUtc(state?.highWater ?? undefined)?.getTime();
  if (ms === undefined || !state?.highWaterIdentifiers?.length) return undefined;
  return { ms, identifiers: new Set(state.highWaterIdentifiers) };
}

/** Whether a record is one already held (same identifier, same datestamp). */
export function isHeld(held: HeldRecords | undefined, record: OaiRecord): boolean {
  return !!held && record.datestamp?.getTime() === held.ms &&
    held.identifiers.has(record.identifier);
}

/**
 * Raises a state's high water to the newest datestamp of a complete
 * harvest, with the identifiers harvested at it (joined with those held
 * when the high water stays where it was).
 */
export function raiseHighWater(
  state: HarvestState,
  newest: string | null,
  identifiers: readonly string[],
): void {
  const ms = parseUtc(newest ?? undefined)?.getTime();
  if (ms === undefined || newest === null) return;
  const high = parseUtc(state.highWater ?? undefined)?.getTime() ?? -Infinity;
  if (ms > high) {
    state.highWater = newest;
    state.highWaterIdentifiers = [...new Set(identifiers)];
  } else if (ms === high) {
    state.highWaterIdentifiers = [
      ...new Set([...state.highWaterIdentifiers ?? [], ...identifiers]),
    ];
  }
}

/** Reads a state file; undefined when it does not exist. */
export async function loadState(path: string): Promise<HarvestState | undefined> {
  // A link at the state's name is refused, never followed (its target's text is no state).
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  let state: HarvestState | undefined;
  try {
    state = JSON.parse(text) as HarvestState;
  } catch {
    // The parser's message quotes the file: it is not repeated.
  }
  if (state?.version !== 1) {
    throw new TidepoolError(
      `Cannot read the harvest state file ${path}: it is not a tidepool harvest state (${
        state === undefined ? "not JSON" : "no version 1"
      })`,
      {
        hint:
          "Give the harvest a state file of its own (`state`, or --state on the command line), or delete this one to start over",
      },
    );
  }
  return state;
}

/** Writes a state file atomically. */
export async function saveState(path: string, state: HarvestState): Promise<void> {
  await writeOwnFile(path, JSON.stringify(state, null, 1));
}

/** Checks that a saved state belongs to the harvest asked for. */
export function checkIdentity(path: string, saved: HarvestState, wanted: HarvestIdentity): void {
  for (const key of ["endpoint", "verb", "metadataPrefix", "set"] as const) {
    if (saved[key] !== wanted[key]) {
      throw new TidepoolError(
        `The harvest state file ${path} belongs to another harvest: its ${key} is ${
          saved[key]
        }, not ${wanted[key]}`,
        { hint: "Give each harvest its own state file, or delete this one to start over" },
      );
    }
  }
}

/** The spool file beside a state file. */
export function spoolPath(statePath: string): string {
  return `${statePath}.records.ndjson`;
}

/** The spool of one finished window of a harvest with several lists in flight, beside the state file. */
export function spoolOf(statePath: string, w: Pick<WindowState, "from" | "until">): string {
  const part = (text: string | null) => (text ?? "open").replace(/[^0-9A-Za-z-]/g, "");
  return `${statePath}.window-${part(w.from)}-${part(w.until)}.ndjson`;
}

/** Removes the spools of a windowed harvest's windows (those never written are no error). */
export async function removeWindowSpools(
  statePath: string,
  windows: readonly Pick<WindowState, "from" | "until">[],
): Promise<void> {
  await Promise.all(windows.map((w) => Deno.remove(spoolOf(statePath, w)).catch(() => {})));
}

/** Reads the first `count` spooled records and rewrites the spool to exactly those. */
export async function readSpool(path: string, count: number): Promise<OaiRecord[]> {
  const text = await readOwnFile(path) ?? "";
  const lines = text.split("\n").filter((line) => line !== "").slice(0, count);
  if (lines.length < count) {
    throw new TidepoolError(
      `The harvest spool ${path} holds ${lines.length} records, but the state file counts ${count}`,
      { hint: "Delete the state file and its spool to harvest again from the beginning" },
    );
  }
  await writeOwnFile(path, lines.length ? lines.join("\n") + "\n" : "");
  return lines.map((line) => {
    const raw = JSON.parse(line) as Omit<OaiRecord, "datestamp">;
    return { ...raw, datestamp: parseUtc(raw.datestampText) };
  });
}

/** Empties the spool for a new harvest (a link at its name is refused, never written through). */
export async function startSpool(path: string): Promise<void> {
  await writeOwnFile(path, "");
}

/** Appends records to the spool. */
export async function appendSpool(path: string, records: readonly OaiRecord[]): Promise<void> {
  if (records.length === 0) return;
  let text = "";
  for (const { datestamp: _, ...rest } of records) text += JSON.stringify(rest) + "\n";
  await appendOwnFile(path, text);
}
