/**
 * The state a command keeps between runs (a harvest's, a mirror's): its
 * path checked before anything is sent (a file, not a folder, and not the
 * output under another name), and an operating-system lock held on it for
 * the whole run, so that two runs (two cron jobs that overlap) never share
 * its pending copy.
 *
 * @module
 */

import { readTextWithin } from "../fs/read_bounded.ts";
import { basename, dirname, resolve } from "node:path";
import { openOwnFile } from "../fs/own_file.ts";
import { type HeldLock, tryHoldLock } from "../fs/file_lock.ts";
import { BusyError, UsageError } from "./exit_codes.ts";

/** The most bytes of a state file read to tell whether tidepool wrote it. */
const STATE_LIMIT = 64 * 1024 * 1024;
/** What is at a path, without following a link; undefined when nothing is. */
async function entryAt(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    if (error instanceof Deno.errors.NotADirectory) return undefined; // checked on the folder
    throw error;
  }
}

/**
 * A path as the file system will resolve it: the nearest existing folder
 * above it through its links, then the rest, so that `a/../b`, `./b` and a
 * linked folder name the same file as `b`.
 *
 * @param path A file path.
 * @returns The absolute path.
 */
export async function canonicalPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const folder = dirname(absolute);
  if (folder === absolute) return absolute;
  try {
    return `${(await Deno.realPath(folder)).replace(/\/$/, "")}/${basename(absolute)}`;
  } catch {
    return `${await canonicalPath(folder)}/${basename(absolute)}`;
  }
}

/**
 * Refuses a file flag's path that cannot be a file: a folder, a name ending
 * in `/`, or a path under something that is not a folder.
 *
 * @param flag The flag, for the error (`--state`).
 * @param path Its value.
 * @throws {UsageError} When the path cannot be a file.
 */
export async function checkFilePath(flag: string, path: string): Promise<void> {
  const refuse = (why: string) =>
    new UsageError(`Invalid ${flag} ${path}: ${why}`, {
      hint: `Give ${flag} the path of a file, such as letters.state.json`,
    });
  if (path === "" || path.endsWith("/")) throw refuse("it names a folder, not a file");
  const info = await entryAt(path);
  if (info?.isDirectory) throw refuse("it is a folder, not a file");
  for (let folder = dirname(resolve(path));; folder = dirname(folder)) {
    const above = await entryAt(folder);
    if (above !== undefined) {
      if (!above.isDirectory && !(above.isSymlink && (await Deno.stat(folder)).isDirectory)) {
        throw refuse(`${folder} is a file, not a folder`);
      }
      return;
    }
    if (dirname(folder) === folder) return;
  }
}

/** Whether parsed JSON is a harvest state tidepool wrote. */
export function isHarvestState(value: unknown): boolean {
  const state = value as Record<string, unknown> | null;
  return state?.version === 1 && typeof state.endpoint === "string" &&
    typeof state.verb === "string";
}

/**
 * Checks a state file's path before anything is sent: a file path (not a
 * folder), and, where something is there, a regular file holding a state
 * of this kind, never a link or a user's file, which a run would replace.
 *
 * @param flag The flag that named it, for the error (`--state`).
 * @param path The state file.
 * @param isState Whether parsed JSON is a state of this kind.
 * @throws {UsageError} When the path is not such a file.
 */
export async function checkStateFile(
  flag: string,
  path: string,
  isState: (value: unknown) => boolean,
): Promise<void> {
  await checkFilePath(flag, path);
  const info = await entryAt(path);
  if (info === undefined) return;
  const refuse = (why: string) =>
    new UsageError(`Refused ${flag} ${path}: ${why}`, {
      hint:
        `Give ${flag} a new file or one a tidepool run keeps; nothing of another program's is read or replaced`,
    });
  if (info.isSymlink) throw refuse("it is a symbolic link, which tidepool does not follow");
  if (!info.isFile) throw refuse("it is not a regular file");
  let parsed: unknown;
  try {
    // A state is small: a file past the bound is not one tidepool wrote, and is not read whole.
    parsed = JSON.parse(await readTextWithin(path, STATE_LIMIT));
  } catch {
    parsed = undefined; // its text is not repeated: it may be anything
  }
  if (!isState(parsed)) throw refuse("it exists and is not a state tidepool wrote");
}

/** The lock file of a state: `<state>.lock`, kept (removing it would race another run). */
export function lockPath(state: string): string {
  return `${state}.lock`;
}

/**
 * Holds the state's lock: an exclusive operating-system lock
 * (`Deno.FsFile#tryLock`) on `<state>.lock`, which goes with the process
 * however it ends. A second run refuses at once rather than waiting, so
 * that cron jobs do not pile up behind a long harvest.
 *
 * @param state The state file (its folder is created).
 * @param command The subcommand, for the error.
 * @returns The lock; `release()` ends it.
 * @throws {BusyError} When another run holds it.
 */
export async function lockState(state: string, command: string): Promise<StateLock> {
  await Deno.mkdir(dirname(resolve(state)), { recursive: true });
  return await holdLock(await openOwnFile(lockPath(state)), state, command);
}

/**
 * Holds the lock of a folder that keeps its own state (a Parquet dataset):
 * the lock is on the folder itself, so no file is added to it.
 *
 * @param dir The folder (created when missing).
 * @param command The subcommand, for the error.
 * @returns The lock.
 * @throws {BusyError} When another run holds it.
 */
export async function lockFolder(dir: string, command: string): Promise<StateLock> {
  await Deno.mkdir(dir, { recursive: true });
  if (!(await Deno.lstat(dir)).isDirectory) {
    throw new UsageError(`Invalid --to ${dir}/: it is a link, not a folder`, {
      hint: "Give the dataset a folder of its own",
    });
  }
  return await holdLock(await Deno.open(dir, { read: true }), dir, command);
}

/** A held lock. */
export type StateLock = HeldLock;

async function holdLock(file: Deno.FsFile, state: string, command: string): Promise<StateLock> {
  const lock = await tryHoldLock(file);
  if (lock === undefined) {
    throw new BusyError(
      `Another tidepool ${command} is running with the state ${state}; this run changed nothing`,
      {
        hint:
          "Wait for it to end, then run again (cron: space the runs out, or let exit code 75 mean try later)",
      },
    );
  }
  return lock;
}
