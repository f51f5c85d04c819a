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
import { writeFileAtomic } from "../../fs/write_file_atomic.ts";

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
  /** The high-water datestamp of the last complete harvest. */
  highWater: string | null;
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

/** Reads a state file; undefined when it does not exist. */
export async function loadState(path: string): Promise<HarvestState | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const state = JSON.parse(text) as HarvestState;
    if (state.version !== 1) throw new Error(`unknown version ${state.version}`);
    return state;
  } catch (error) {
    throw new TidepoolError(`Cannot read the harvest state file ${path}`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "Reading it said",
      hint: "Delete the file to start the harvest from the beginning",
    });
  }
}

/** Writes a state file atomically. */
export async function saveState(path: string, state: HarvestState): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(state, null, 1));
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

/** Reads the first `count` spooled records and rewrites the spool to exactly those. */
export async function readSpool(path: string, count: number): Promise<OaiRecord[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const lines = text.split("\n").filter((line) => line !== "").slice(0, count);
  if (lines.length < count) {
    throw new TidepoolError(
      `The harvest spool ${path} holds ${lines.length} records, but the state file counts ${count}`,
      { hint: "Delete the state file and its spool to harvest again from the beginning" },
    );
  }
  await Deno.writeTextFile(path, lines.length ? lines.join("\n") + "\n" : "");
  return lines.map((line) => {
    const raw = JSON.parse(line) as Omit<OaiRecord, "datestamp">;
    return { ...raw, datestamp: parseUtc(raw.datestampText) };
  });
}

/** Appends records to the spool. */
export async function appendSpool(path: string, records: readonly OaiRecord[]): Promise<void> {
  if (records.length === 0) return;
  let text = "";
  for (const { datestamp: _, ...rest } of records) text += JSON.stringify(rest) + "\n";
  await Deno.writeTextFile(path, text, { append: true });
}
