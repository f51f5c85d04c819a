/**
 * The producer's state file a dataset owns (an OAI-PMH harvest's position):
 * put back as checkpointed when the writer opens, copied into the
 * checkpoint at each flush. The dataset replaces or removes a file at that
 * name only when its checkpoint claims the name, so a user's file there
 * (their own harvest state, notes, another program's JSON) is refused and
 * kept; a symbolic link there is refused, never followed or written through.
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { TidepoolError } from "../errors/errors.ts";
import {
  NotOwnFileError,
  readOwnFile,
  regularFileAt,
  removeOwnFile,
  writeOwnFile,
} from "../fs/own_file.ts";
import { type Checkpoint, CHECKPOINT_FILE } from "./_dataset_files.ts";

/**
 * Whether a checkpoint claims the state file at `path`: it names it, or, in
 * a checkpoint written before the name was kept, the file is inside the
 * dataset folder (where `harvestDataset` keeps it by default).
 */
function claims(checkpoint: Checkpoint | undefined, dir: string, path: string): boolean {
  if (checkpoint === undefined) return false;
  if (checkpoint.stateFile !== undefined) return checkpoint.stateFile === path;
  const inside = relative(resolve(dir), path);
  return inside !== "" && !inside.startsWith("..") && !inside.startsWith("/");
}

/** A refusal of the state file, as a tidepool error saying what to do. */
function refusal(dir: string, stateFile: string, why: string): TidepoolError {
  return new TidepoolError(
    `Cannot write a dataset into ${dir} with the state file ${stateFile}: ${why}`,
    {
      hint:
        `tidepool replaces and removes only files it wrote: give the dataset a state file of its own (a new path), or move ${stateFile} away`,
    },
  );
}

/** Runs a file operation, turning a refusal of a link or a folder into a tidepool error. */
async function owned<T>(dir: string, stateFile: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof NotOwnFileError)) throw error;
    throw refusal(dir, stateFile, `it is ${error.what}, not a file tidepool wrote`);
  }
}

/**
 * Puts the state file back as the checkpoint has it (or removes the one a
 * run left after the last checkpoint), claiming its name in the checkpoint
 * the caller writes next. Refused, before anything is changed, when a file
 * the checkpoint does not claim is at that name.
 *
 * @param dir The dataset folder.
 * @param stateFile The state file the caller gave.
 * @param earlier The checkpoint read, if any.
 * @param checkpoint The checkpoint the writer goes on with (its `stateFile` is set).
 */
export async function restoreStateFile(
  dir: string,
  stateFile: string,
  earlier: Checkpoint | undefined,
  checkpoint: Checkpoint,
): Promise<void> {
  const path = resolve(stateFile);
  if (path === resolve(dir, CHECKPOINT_FILE)) {
    throw refusal(dir, stateFile, "it is the dataset's checkpoint");
  }
  const there = await owned(dir, stateFile, () => regularFileAt(stateFile));
  if (there !== undefined && !claims(earlier, dir, path)) {
    throw refusal(dir, stateFile, "a file is there that this dataset did not write");
  }
  await owned(
    dir,
    stateFile,
    () =>
      checkpoint.state === null
        ? removeOwnFile(stateFile)
        : writeOwnFile(stateFile, checkpoint.state),
  );
  checkpoint.stateFile = path;
}

/**
 * The state file's text as it is now, for the checkpoint; null when there is none.
 *
 * @param dir The dataset folder.
 * @param stateFile The state file.
 * @returns Its text, or null.
 */
export async function readStateFile(dir: string, stateFile: string): Promise<string | null> {
  return await owned(dir, stateFile, () => readOwnFile(stateFile)) ?? null;
}
