/**
 * A harvest's state that belongs to another harvest (the repository moved
 * to another address, another set or format was asked) is refused naming
 * the file the user keeps, `<file>.harvest.json`, never only its pending
 * copy; and `--restart` removes that state and every file tidepool keeps
 * beside it, so the harvest starts over in one command.
 *
 * @module
 */

import { redact } from "../errors/redact.ts";
import { NotOwnFileError, readOwnFile, regularFileAt, removeOwnFile } from "../fs/own_file.ts";
import { loadState, spoolPath } from "../archive/oai/_state.ts";
import { UsageError } from "./exit_codes.ts";
import { isHarvestState, lockState } from "./_state_files.ts";
import { ledgerPath, readLedger } from "./_owned_output.ts";
import { pendingPath } from "./incremental_harvest.ts";

/** What a run harvests, as its state records it. */
export interface HarvestIdentity {
  endpoint: string;
  verb: string;
  metadataPrefix: string;
  set: string | null;
}

/** The files tidepool keeps for a state: the state, its pending copy, their spools and ledgers. */
export function stateFiles(state: string): string[] {
  return [state, pendingPath(state)].flatMap((path) => [path, spoolPath(path), ledgerPath(path)]);
}

/** The most bytes of a spool's first line read to tell whether tidepool wrote it. */
const SPOOL_LINE_LIMIT = 16 * 1024 * 1024;

/** The first line of a file (at most {@linkcode SPOOL_LINE_LIMIT} bytes of it). */
async function firstLine(path: string): Promise<string> {
  using file = await Deno.open(path, { read: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (size < SPOOL_LINE_LIMIT) {
    const read = await file.read(buffer);
    if (read === null) break;
    const chunk = buffer.slice(0, read);
    const end = chunk.indexOf(0x0a);
    chunks.push(end < 0 ? chunk : chunk.subarray(0, end));
    size += read;
    if (end >= 0) break;
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
  return new TextDecoder().decode(bytes);
}

/** Whether a spool's first line is a record as tidepool spools it (an empty spool is too). */
async function isSpool(path: string): Promise<boolean> {
  const line = await firstLine(path);
  if (line === "") return true;
  try {
    const record = JSON.parse(line);
    return typeof record?.identifier === "string" && typeof record.datestampText === "string";
  } catch {
    return false;
  }
}

/** Whether a file kept beside a state holds what tidepool keeps under its name. */
async function isKeptFile(path: string, state: string): Promise<boolean> {
  if (path === state || path === pendingPath(state)) {
    try {
      return isHarvestState(JSON.parse(await readOwnFile(path) ?? ""));
    } catch {
      return false;
    }
  }
  if (path.endsWith(".output.json")) return await readLedger(path) !== undefined;
  return await isSpool(path);
}

/**
 * Refuses, before anything is sent, a user's file at one of the names a
 * harvest keeps beside its state: they are named after `--state`, which the
 * user chooses (`--state letters` keeps `letters.records.ndjson` and
 * `letters.output.json`), and a run would overwrite, append to or (with
 * `--restart`) remove what is there.
 *
 * @param state The state file.
 * @throws {UsageError} When a link, a folder or a file tidepool did not write holds one of them.
 */
export async function refuseForeignStateFiles(state: string): Promise<void> {
  for (const path of stateFiles(state)) {
    let why: string | undefined;
    try {
      if (await regularFileAt(path) === undefined) continue;
      if (await isKeptFile(path, state)) continue;
      why = "tidepool did not write it";
    } catch (error) {
      if (!(error instanceof NotOwnFileError)) throw error;
      why = `it is ${error.what}`;
    }
    throw new UsageError(
      `Refused --state ${state}: ${path} is one of the files a harvest keeps beside its state, and ${why}`,
      {
        hint:
          `Give --state a name of its own (such as ${state}.state.json), or move ${path} away; tidepool replaces and removes only files it wrote`,
      },
    );
  }
}

/**
 * Removes a harvest's state and the files kept beside it (`--restart`),
 * under the state's lock, each only when it is what tidepool keeps there.
 *
 * @param state The state file.
 * @returns The files removed.
 */
export async function restartHarvest(state: string): Promise<string[]> {
  using _lock = await lockState(state, "harvest");
  // Asked again under the lock, right before anything is removed.
  await refuseForeignStateFiles(state);
  const removed: string[] = [];
  for (const path of stateFiles(state)) {
    try {
      await Deno.lstat(path);
    } catch {
      continue;
    }
    await removeOwnFile(path);
    removed.push(path);
  }
  return removed;
}

/**
 * Refuses a state (or its pending copy) that another harvest wrote, naming
 * the state file the user knows and the flag that starts over.
 *
 * @param state The state file (`--state`, or `<file>.harvest.json`).
 * @param endpoint The endpoint harvested (its key is not compared: redacted as the state keeps it).
 * @param wanted The verb, format and set of this run.
 * @throws {UsageError} When a state of another harvest is there.
 */
export async function refuseOtherHarvest(
  state: string,
  endpoint: string,
  wanted: Omit<HarvestIdentity, "endpoint">,
): Promise<void> {
  const identity: HarvestIdentity = { endpoint: redact(endpoint), ...wanted };
  for (const path of [state, pendingPath(state)]) {
    const saved = await loadState(path);
    if (saved === undefined) continue;
    for (const key of ["endpoint", "verb", "metadataPrefix", "set"] as const) {
      if (saved[key] === identity[key]) continue;
      throw new UsageError(
        `The harvest state ${state} belongs to another harvest: its ${key} is ${saved[key]}, not ${
          identity[key]
        }`,
        {
          hint:
            `Run the same command with --restart to harvest from the beginning (it removes ${state} and the files tidepool keeps beside it), or give --state a file of its own`,
        },
      );
    }
  }
}
