/**
 * How a recording's files are written so that a stopped run leaves no junk
 * that lasts: each answer goes to a temporary file beside its final name
 * (`.<64 hex>.json.<8 hex>.part`), held under an exclusive lock from its
 * creation to its rename. A run stopped in between (Ctrl-C, a kill) leaves
 * that file behind, but its lock goes with the process; the next run that
 * writes to the recording removes every file of exactly that name shape,
 * in the recording's own folders, that it can lock: a leftover of a stopped
 * run, never a write in progress in another process, never a file of
 * another shape.
 *
 * @module
 */

import { tryHoldLock } from "../fs/file_lock.ts";
import { readWithin } from "../fs/read_bounded.ts";
import { TidepoolError } from "../errors/errors.ts";
import { writeFileAtomicLocked } from "../fs/write_file_atomic.ts";

/** Whether a file in `folder` is named as a recording's temporary file there. */
function isLeftoverName(folder: string, name: string): boolean {
  const parts = /^\.([A-Za-z0-9._-]+)\.json\.[0-9a-f]{8}\.part$/.exec(name);
  if (!parts) return false;
  // A stored answer: `<2 hex>/.<64 hex starting with them>.json.…`; a setting: `settings/.<name>.json.…`.
  if (folder === "settings") return true;
  return /^[0-9a-f]{2}$/.test(folder) && /^[0-9a-f]{64}$/.test(parts[1]) &&
    parts[1].startsWith(folder);
}

/** Recording folders already swept by this process. */
const swept = new Set<string>();

/**
 * Writes a recording file under its final name only when complete, holding
 * the temporary file's lock until the rename.
 *
 * @param path The final path.
 * @param text The file's text.
 *
 * @example
 * ```ts
 * const dir = await Deno.makeTempDir();
 * const file = { format: "tidepool-cache/1", status: 200 };
 * await writeRecordingFile(`${dir}/127.0.0.1_8080/ab/abcd.json`, JSON.stringify(file));
 * console.log(await readRecordingFile(`${dir}/127.0.0.1_8080/ab/abcd.json`));
 * ```
 */
export async function writeRecordingFile(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  try {
    await writeFileAtomicLocked(path, text);
  } catch (error) {
    // Another run's sweep may take the new file in the instant before its lock: write again.
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    await writeFileAtomicLocked(path, text);
  }
}

/**
 * Removes the leftovers of stopped runs from a recording, once per process:
 * in each host folder and its subfolders (one level: `<host>/<2 hex>/`,
 * `<host>/settings/`), every regular file named like a recording's
 * temporary file whose lock can be taken.
 *
 * @param dir The recording's folder.
 * @returns The paths removed.
 *
 * @example
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/x.example/ab`, { recursive: true });
 * const key = "ab" + "0".repeat(62); // a stored answer's key starts with its folder's name
 * await Deno.writeTextFile(`${dir}/x.example/ab/.${key}.json.1f2e3d4c.part`, "{");
 * console.log((await sweepLeftovers(dir)).length); // 1: the part file of a stopped run
 * ```
 */
export async function sweepLeftovers(dir: string): Promise<string[]> {
  if (swept.has(dir)) return [];
  swept.add(dir);
  const removed: string[] = [];
  for (const host of await folders(dir)) {
    for (const folder of await folders(host)) {
      const base = folder.slice(folder.lastIndexOf("/") + 1);
      for (const name of await names(folder)) {
        if (!isLeftoverName(base, name)) continue;
        const path = `${folder}/${name}`;
        if (await removeIfAbandoned(path)) removed.push(path);
      }
    }
  }
  return removed;
}

async function removeIfAbandoned(path: string): Promise<boolean> {
  const info = await Deno.lstat(path).catch(() => undefined);
  if (!info?.isFile) return false; // a link or a folder of that name is not ours
  const file = await Deno.open(path, { read: true }).catch(() => undefined);
  if (!file) return false;
  const lock = await tryHoldLock(file);
  if (!lock) return false; // a write in progress
  try {
    await Deno.remove(path);
    return true;
  } catch {
    return false;
  } finally {
    lock.release();
  }
}

async function folders(dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) found.push(`${dir}/${entry.name}`);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile) found.push(entry.name);
  return found;
}

/**
 * The most bytes of one recording file: a recorded answer of the client's
 * default cap (256 MiB) in base64, with room to spare, far below memory.
 */
export const RECORDING_FILE_LIMIT = 512 * 1024 * 1024;

/** A recording file that cannot be a recorded answer, said without quoting it. */
function notARecording(path: string, why: string): TidepoolError {
  return new TidepoolError(`The recording file ${path} is not a recorded answer: ${why}`, {
    hint:
      "A recording holds regular JSON files tidepool wrote; record again (TIDEPOOL_CACHE_MODE=record), or remove that file",
  });
}

/**
 * A recording file's record, read as untrusted input: a regular file inside
 * the recording (never a link, which would read a file of whoever replays,
 * nor a FIFO or a device, which never end), at most
 * {@linkcode RECORDING_FILE_LIMIT} bytes, a JSON object; what it is not is
 * said without quoting a byte of it.
 *
 * @param path The recording file.
 * @returns Its record, or undefined when there is none.
 * @throws {TidepoolError} When something else is at the path.
 *
 * @example
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeRecordingFile(`${dir}/127.0.0.1_8080/ab/abcd.json`, JSON.stringify({ format: "tidepool-cache/1" }));
 * console.log(await readRecordingFile(`${dir}/127.0.0.1_8080/ab/abcd.json`)); // { format: "tidepool-cache/1" }
 * ```
 */
export async function readRecordingFile(
  path: string,
): Promise<Record<string, unknown> | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (info.isSymlink) throw notARecording(path, "it is a symbolic link, which is never followed");
  if (!info.isFile) throw notARecording(path, "it is not a regular file (a FIFO or a device)");
  if (info.size > RECORDING_FILE_LIMIT) {
    throw notARecording(path, `it has ${info.size} bytes, more than ${RECORDING_FILE_LIMIT}`);
  }
  // Opened without following a link planted since, and read within the limit if it grows.
  using file = await Deno.open(path, { read: true });
  const bytes = await readWithin(file, RECORDING_FILE_LIMIT, path).catch(() => {
    throw notARecording(path, `it grew past ${RECORDING_FILE_LIMIT} bytes while read`);
  });
  let record: unknown;
  try {
    record = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw notARecording(path, "it is not JSON text");
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    throw notARecording(path, "it is not a JSON object");
  }
  return record as Record<string, unknown>;
}
