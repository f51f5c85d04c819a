/**
 * A ResourceSync mirror step whose state moves on only once its table is
 * delivered, as a harvest's does: the step runs on pending copies of the
 * mirror's state and list of locations, under the state's lock, and the
 * copies replace them only after the table reached its file or standard
 * output. A write that fails (or a reader that went away) leaves the state
 * where it was, so the next run lists the same changes again.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { MirrorResult } from "../archive/resourcesync/types.ts";
import { moveOwnFile, readOwnFile, removeOwnFile, writeOwnFile } from "../fs/own_file.ts";
import { UsageError } from "./exit_codes.ts";
import type { OutputTarget } from "./_output.ts";
import { canonicalPath, lockState } from "./_state_files.ts";

/** The mirror's state file inside the `--mirror` folder (its list of resources is kept beside it). */
export const MIRROR_STATE_FILE = "_resourcesync_state.json";

/** The list of locations the mirror keeps beside a state file. */
function locsPath(state: string): string {
  return `${state}.locs.txt`;
}

/** The folder inside `--mirror` that holds the resources' files. */
export const MIRROR_FILES_FOLDER = "resources";

/**
 * The records of what is on disk that the library keeps beside a state:
 * the journal of files written and the list still to fetch. They follow
 * the files, not the table: a run's are kept whether or not its table was
 * delivered, so no file is ever fetched without being recorded.
 */
function fileRecords(state: string): string[] {
  return [`${state}.files.jsonl`, `${state}.pending.json`];
}

/** Copies one of the mirror's files to its pending name, or clears the pending name. */
async function copyOwn(from: string, to: string): Promise<void> {
  const text = await readOwnFile(from);
  if (text === undefined) await removeOwnFile(to);
  else await writeOwnFile(to, text);
}

/** Refuses a mirror folder that is a file, and a `--to` among the mirror's own files. */
async function checkPaths(dir: string, state: string, target: OutputTarget): Promise<void> {
  try {
    if (!(await Deno.stat(dir)).isDirectory) {
      throw new UsageError(`Invalid --mirror ${dir}: it is a file, not a folder`, {
        hint: "Give --mirror a folder of the mirror's own (it is created when missing)",
      });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (target.kind !== "file") return;
  const output = await canonicalPath(target.path);
  const kept = await canonicalPath(state);
  const files = await canonicalPath(`${dir}/${MIRROR_FILES_FOLDER}`);
  if (output === kept || output.startsWith(`${kept}.`) || output.startsWith(`${files}/`)) {
    throw new UsageError(
      `Refused --to ${target.path}: it is one of the files the mirror keeps in ${dir}`,
      { hint: "Give --to a file name of its own" },
    );
  }
}

/**
 * Runs one mirror step on pending copies of the state and delivers its
 * table, then commits the copies.
 *
 * @param dir The `--mirror` folder (created when missing).
 * @param target Where the table goes (checked against the mirror's files).
 * @param step Runs the step with the given state file.
 * @param io `deliver` writes the table and says where.
 * @returns The step, and where its table went.
 * @throws {BusyError} When another run holds the mirror.
 */
export async function mirrorThenCommit(
  dir: string,
  target: OutputTarget,
  step: (state: string) => Promise<MirrorResult>,
  io: { deliver: (table: ColumnTable) => Promise<string> },
): Promise<MirrorResult & { where: string }> {
  const state = `${dir}/${MIRROR_STATE_FILE}`;
  await checkPaths(dir, state, target);
  using _lock = await lockState(state, "resourcesync");
  const pending = `${state}.pending`;
  const records = fileRecords(state).map((committed, i) => [committed, fileRecords(pending)[i]]);
  // A stopped run's records are newer than the committed ones: they are taken first.
  for (const [committed, copy] of records) await moveOwnFile(copy, committed);
  await copyOwn(state, pending);
  await copyOwn(locsPath(state), locsPath(pending));
  for (const [committed, copy] of records) await copyOwn(committed, copy);
  let result: MirrorResult;
  try {
    result = await step(pending);
  } finally {
    for (const [committed, copy] of records) await moveOwnFile(copy, committed);
  }
  const where = await io.deliver(result.table);
  // The list first, then the state: a stop in between lists some changes again, never loses one.
  await moveOwnFile(locsPath(pending), locsPath(state));
  await moveOwnFile(pending, state);
  return { ...result, where };
}
