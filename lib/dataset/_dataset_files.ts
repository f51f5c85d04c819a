/**
 * The files of a dataset: hive-style folder names, atomic writes, the
 * checkpoint that lists committed files, and row keys.
 *
 * @module
 */

import { resolve as resolvePath } from "node:path";
import { TidepoolError } from "../errors/errors.ts";
import { NotOwnFileError, readOwnFile, removeOwnFile, writeOwnFile } from "../fs/own_file.ts";

/** The checkpoint's name; `_` and `.` files are skipped by Spark, Trino and DuckDB globs. */
export const CHECKPOINT_FILE = "_tidepool_checkpoint.json";

/** What a dataset has committed. */
export interface Checkpoint {
  version: 1;
  /** Rows in the committed files. */
  rows: number;
  /** Committed Parquet files, relative to the dataset folder, in write order. */
  files: string[];
  /** The producer's state file as it was at the last flush, or null. */
  state: string | null;
  /**
   * The producer's state file the dataset owns, as an absolute path: written
   * when the writer opens, before the producer runs, so that only a file this
   * dataset put at that name is ever replaced or removed. Absent in
   * checkpoints written before it was kept.
   */
  stateFile?: string;
}

/** The value Hive, Spark and DuckDB read as a null partition value. */
const NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__";

/**
 * Escapes a partition value as Spark does (percent-encoding), which DuckDB
 * and Trino decode; a trailing dot or space is escaped too, since Windows
 * drops them from folder names.
 */
function escapePartValue(value: string): string {
  const escape = (char: string) =>
    Array.from(
      new TextEncoder().encode(char),
      (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    ).join("");
  return value.replace(/[^A-Za-z0-9._ -]/gu, escape).replace(
    /[. ]+$/,
    (tail) => [...tail].map(escape).join(""),
  );
}

/** The 255-byte limit of a folder name on ext4, APFS and NTFS. */
const MAX_FOLDER_BYTES = 255;

/**
 * The relative folder of a row: `name=value/` per level, `""` without levels.
 *
 * @param levels Partition names and the row's values.
 * @returns The folder, ending with a slash when not empty.
 */
export function partitionFolder(
  levels: readonly (readonly [string, string | null | undefined])[],
): string {
  let folder = "";
  for (const [name, value] of levels) {
    const part = value === null || value === undefined || value === ""
      ? NULL_PARTITION
      : escapePartValue(value);
    const segment = `${escapePartValue(name)}=${part}`;
    // Escaped, the segment is ASCII: its length is its size in bytes.
    if (segment.length > MAX_FOLDER_BYTES) {
      throw new TidepoolError(
        `Cannot write the partition ${name}: a value makes a folder name of ${segment.length} bytes, past the limit of ${MAX_FOLDER_BYTES}`,
        {
          details: `${String(value).slice(0, 60)}...`,
          detailsLabel: "The value starts",
          hint:
            "Partition by a shorter value derived from it (a prefix, a year, a hash): partitionBy: [{ name, value: (row) => ... }]",
        },
      );
    }
    folder += `${segment}/`;
  }
  return folder;
}

/** One string for a row's key values (dates by time, bigints by digits). */
export function keyOf(values: readonly unknown[]): string {
  return values.map((value) =>
    value instanceof Date
      ? `d${value.getTime()}`
      : value === null || value === undefined
      ? "n"
      : typeof value === "string"
      ? `s${value}`
      : `${typeof value.valueOf()}${String(value)}`
  ).join("\u0001");
}

/**
 * Reads the checkpoint of a dataset folder; undefined when there is none.
 * A link at its name is refused, never followed, and every file it lists
 * must be a part file in hive-style folders (no `..`, no absolute path).
 */
export async function readCheckpoint(dir: string): Promise<Checkpoint | undefined> {
  const path = `${dir}/${CHECKPOINT_FILE}`;
  let text: string | undefined;
  try {
    text = await readOwnFile(path);
  } catch (error) {
    if (!(error instanceof NotOwnFileError)) throw error;
    throw new TidepoolError(
      `Cannot read the dataset checkpoint in ${dir}: ${CHECKPOINT_FILE} is ${error.what}, not a file tidepool wrote`,
      { hint: "Write the dataset to a new folder, or remove what is at that name" },
    );
  }
  if (text === undefined) return undefined;
  try {
    const checkpoint = JSON.parse(text) as Checkpoint;
    if (checkpoint.version !== 1) throw new Error(`unknown version ${checkpoint.version}`);
    const stray = checkpoint.files.find((file) => !COMMITTED_FILE.test(file));
    if (stray !== undefined) throw new Error(`it lists ${stray}, which no dataset writer makes`);
    return checkpoint;
  } catch (error) {
    throw new TidepoolError(`Cannot read the dataset checkpoint in ${dir}`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "The file said",
      hint: "Write the dataset to a new folder, or delete this one to start over",
    });
  }
}

/** Writes the checkpoint atomically (a link at its name is refused, never replaced). */
export function writeCheckpoint(dir: string, checkpoint: Checkpoint): Promise<void> {
  return writeOwnFile(`${dir}/${CHECKPOINT_FILE}`, JSON.stringify(checkpoint));
}

/** The name of every data file a writer makes: `part-<flush>-<run>.parquet`. */
const PART_FILE = /^part-\d{6}-[0-9a-f]{8}\.parquet$/;

/** A committed file's path: part files in hive-style `name=value/` folders, never `..` or `/...`. */
const COMMITTED_FILE = /^([^/]*=[^/]*\/)*part-\d{6}-[0-9a-f]{8}\.parquet$/;

/** A temporary name `writeFileAtomic` gives (`.<name>.<8 hex>.part`). */
const TEMPORARY_FILE = /^\..+\.[0-9a-f]{8}\.part$/;

/** A hive-style partition folder's name. */
const PARTITION_FOLDER = /^[^=]+=/;

/**
 * The first file below a folder with no checkpoint that tidepool did not
 * write: anything but its part files, their unfinished `.part` copies, the
 * producer's state file, in hive-style `name=value` folders. Undefined for a
 * missing or empty folder, or one an interrupted first run left.
 */
export async function foreignFile(dir: string, stateFile?: string): Promise<string | undefined> {
  const state = stateFile === undefined ? undefined : resolvePath(stateFile);
  async function visit(relative: string): Promise<string | undefined> {
    for await (const entry of Deno.readDir(`${dir}/${relative}`)) {
      const path = `${relative}${entry.name}`;
      if (entry.isDirectory && PARTITION_FOLDER.test(entry.name)) {
        const found = await visit(`${path}/`);
        if (found) return found;
      } else if (
        !entry.isFile ||
        !(PART_FILE.test(entry.name) || TEMPORARY_FILE.test(entry.name) ||
          resolvePath(`${dir}/${path}`) === state)
      ) {
        return path;
      }
    }
    return undefined;
  }
  try {
    return await visit("");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Removes data files the checkpoint does not list (written after the last
 * checkpoint by an interrupted run) and left-over temporary files, in the
 * folder and its partition folders only. Refuses a folder holding Parquet
 * files some other program wrote, or a symbolic link at a name a dataset
 * writer makes (a partition folder, a part file), rather than delete it or
 * write through it; anything else (a user's notes) is left alone.
 *
 * @param dir The dataset folder.
 * @param committed The files the checkpoint lists.
 */
export async function removeUncommitted(dir: string, committed: ReadonlySet<string>) {
  const refuse = (path: string, what: string) =>
    new TidepoolError(
      `Cannot write a dataset into ${dir}: it holds ${what} tidepool did not write (${path})`,
      { hint: "Give the dataset a folder of its own" },
    );
  async function visit(relative: string) {
    for await (const entry of Deno.readDir(`${dir}/${relative}`)) {
      const path = `${relative}${entry.name}`;
      const ours = PARTITION_FOLDER.test(entry.name) || PART_FILE.test(entry.name) ||
        TEMPORARY_FILE.test(entry.name);
      if (entry.isSymlink && ours) throw refuse(path, "a symbolic link at a name");
      if (entry.isDirectory) {
        if (PARTITION_FOLDER.test(entry.name)) await visit(`${path}/`);
      } else if (entry.isFile && TEMPORARY_FILE.test(entry.name)) {
        await removeOwnFile(`${dir}/${path}`);
      } else if (entry.name.endsWith(".parquet") && !committed.has(path)) {
        if (!entry.isFile || !PART_FILE.test(entry.name)) throw refuse(path, "Parquet files");
        await removeOwnFile(`${dir}/${path}`);
      }
    }
  }
  await visit("");
}
