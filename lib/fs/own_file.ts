/**
 * The files tidepool keeps beside a user's (harvest and mirror state, their
 * pending copies, spools, lock files) are read and written only as regular
 * files at their own name: never through a symbolic link someone planted
 * there, never into a folder, a device or a pipe. Writes go through
 * {@linkcode writeFileAtomic} (a rename never follows a link); an append or
 * a lock opens the file and checks, on the open file, that it is the one
 * the name held (a link swapped in between is caught before a byte is written).
 *
 * @module
 */

import { writeFileAtomic } from "./write_file_atomic.ts";

/** A file tidepool keeps is not a regular file of its own: a symbolic link, a folder, a device. */
export class NotOwnFileError extends Error {
  /** The error kind. */
  override name = "NotOwnFileError";
  /** The path refused. */
  readonly path: string;
  /** What is there instead (`a symbolic link`, `a folder`). */
  readonly what: string;

  /**
   * The refusal of one path.
   *
   * @param path The path.
   * @param what What is there (`a symbolic link`, `a folder`).
   */
  constructor(path: string, what: string) {
    super(
      `Refused to use ${path}: it is ${what}, not a file tidepool wrote; tidepool never reads or writes its own files through a link or into another kind of file. Remove it, or give tidepool another path`,
    );
    this.path = path;
    this.what = what;
  }
}

/** What is at a path, without following a link there. */
async function entryAt(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * What is at one of tidepool's own names: a regular file's info, or
 * undefined when nothing is there; anything else (a link, a folder, a
 * device) is refused, never followed.
 *
 * @param path The file.
 * @returns The file's info (from `lstat`), or undefined when none is there.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Whether a state file is there yet
 * ```ts
 * const dir = await Deno.makeTempDir();
 * console.log(await regularFileAt(`${dir}/state.json`)); // undefined
 * await Deno.remove(dir);
 * ```
 */
export async function regularFileAt(path: string): Promise<Deno.FileInfo | undefined> {
  const info = await entryAt(path);
  if (info === undefined || info.isFile) return info;
  throw new NotOwnFileError(
    path,
    info.isSymlink ? "a symbolic link" : info.isDirectory ? "a folder" : "not a regular file",
  );
}

/** Refuses an open file that is not the regular file `before` described (a name swapped meanwhile). */
async function checkSame(file: Deno.FsFile, path: string, before: Deno.FileInfo): Promise<void> {
  const opened = await file.stat();
  if (!opened.isFile || opened.ino !== before.ino || opened.dev !== before.dev) {
    file.close();
    throw new NotOwnFileError(path, "a file that changed while it was being opened");
  }
}

/**
 * Reads one of tidepool's own files as text.
 *
 * @param path The file.
 * @returns Its text, or undefined when there is none.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Reading a state file that may not exist yet
 * ```ts
 * const dir = await Deno.makeTempDir();
 * console.log(await readOwnFile(`${dir}/state.json`)); // undefined
 * await Deno.remove(dir);
 * ```
 */
export async function readOwnFile(path: string): Promise<string | undefined> {
  const bytes = await readOwnBytes(path);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/**
 * Reads one of tidepool's own files as bytes (a dataset's Parquet file).
 *
 * @param path The file.
 * @returns Its bytes, or undefined when there is none.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Reading a part file back
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeOwnFile(`${dir}/part.bin`, new Uint8Array([1, 2]));
 * console.log(await readOwnBytes(`${dir}/part.bin`)); // Uint8Array(2) [ 1, 2 ]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readOwnBytes(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const before = await regularFileAt(path);
  if (before === undefined) return undefined;
  const file = await Deno.open(path, { read: true });
  await checkSame(file, path, before);
  // Reading the stream to its end closes the file.
  return new Uint8Array(await new Response(file.readable).arrayBuffer());
}

/**
 * Makes the folders of a relative path below a folder, one level at a time,
 * refusing a symbolic link (or a file) at any level: a folder tidepool
 * names (a dataset's `year=2026/`) is never entered through a link planted
 * there, so nothing is written where the link points.
 *
 * @param base The folder (it must exist; the user named it).
 * @param relative The folders below it, `/`-separated (`year=2026/month=01`).
 * @throws {NotOwnFileError} When a link or another kind of file holds a level's name.
 *
 * @example A partition folder
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await makeOwnFolders(dir, "year=2026/month=01");
 * console.log((await Deno.lstat(`${dir}/year=2026/month=01`)).isDirectory); // true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function makeOwnFolders(base: string, relative: string): Promise<void> {
  let path = base;
  for (const level of relative.split("/").filter((part) => part !== "")) {
    path = `${path}/${level}`;
    try {
      await Deno.mkdir(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const info = await Deno.lstat(path);
    if (!info.isDirectory) {
      throw new NotOwnFileError(path, info.isSymlink ? "a symbolic link" : "not a folder");
    }
  }
}

/**
 * Writes one of tidepool's own files whole, atomically: refused when a link
 * or another kind of file holds its name.
 *
 * @param path The file (its folder must exist).
 * @param data The bytes, or text written as UTF-8.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Saving a state file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeOwnFile(`${dir}/state.json`, "{}");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeOwnFile(path: string, data: Uint8Array | string): Promise<void> {
  await regularFileAt(path);
  await writeFileAtomic(path, data);
}

/**
 * Removes one of tidepool's own files, if it is there: refused when a link
 * or another kind of file holds its name (it is not tidepool's to remove).
 *
 * @param path The file.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Dropping a pending state
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await removeOwnFile(`${dir}/state.json.pending`); // nothing there: nothing done
 * await Deno.remove(dir);
 * ```
 */
export async function removeOwnFile(path: string): Promise<void> {
  if (await regularFileAt(path) === undefined) return;
  await Deno.remove(path).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/**
 * Moves one of tidepool's own files onto another of its names, as the
 * commit of a pending copy: both names must hold regular files (or the
 * target nothing); a rename replaces a link at the target rather than
 * following it, but a link there is not tidepool's to replace.
 *
 * @param from The pending file.
 * @param to The name it takes.
 * @returns False when `from` is not there (nothing moved).
 * @throws {NotOwnFileError} When a link, a folder or another kind of file holds either name.
 *
 * @example Committing a pending state
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeOwnFile(`${dir}/state.json.pending`, "{}");
 * console.log(await moveOwnFile(`${dir}/state.json.pending`, `${dir}/state.json`)); // true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function moveOwnFile(from: string, to: string): Promise<boolean> {
  if (await regularFileAt(from) === undefined) return false;
  await regularFileAt(to);
  await Deno.rename(from, to);
  return true;
}

/**
 * Appends text to one of tidepool's own files, creating it when missing
 * (as a new file: creation never follows a link).
 *
 * @param path The file.
 * @param text The text, written as UTF-8.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Adding lines to a spool
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await appendOwnFile(`${dir}/spool.ndjson`, "{}\n");
 * await appendOwnFile(`${dir}/spool.ndjson`, "{}\n");
 * console.log(await Deno.readTextFile(`${dir}/spool.ndjson`)); // {}\n{}\n
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function appendOwnFile(path: string, text: string): Promise<void> {
  const file = await openOwnFile(path, { append: true });
  try {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  } finally {
    file.close();
  }
}

/**
 * Opens one of tidepool's own files for writing (a lock file, a spool),
 * creating it when missing; the caller closes it.
 *
 * @param path The file.
 * @param mode `append` to add at its end, else opened for reading and writing in place.
 * @returns The open file.
 * @throws {NotOwnFileError} When a link, a folder or another kind of file is there.
 *
 * @example Opening a lock file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * const lock = await openOwnFile(`${dir}/state.lock`);
 * console.log(await lock.tryLock(true)); // true
 * lock.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openOwnFile(
  path: string,
  mode: { append?: boolean } = {},
): Promise<Deno.FsFile> {
  const access = mode.append ? { append: true } : { read: true, write: true };
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await regularFileAt(path);
    if (before === undefined) {
      try {
        // Create-new (O_EXCL) fails on any name already taken, a link included.
        return await Deno.open(path, { ...access, createNew: true });
      } catch (error) {
        if (error instanceof Deno.errors.AlreadyExists) continue; // made meanwhile: look again
        throw error;
      }
    }
    const file = await Deno.open(path, access);
    await checkSame(file, path, before);
    return file;
  }
  throw new NotOwnFileError(path, "a name that keeps changing");
}
