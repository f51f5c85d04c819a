/**
 * What tidepool wrote at a table file's name, recorded in the sidecar
 * beside it (`<file>.provenance.json`, field `written`): the SHA-256 of the
 * bytes written and who wrote them (`command line` for a command's `--to`,
 * `saveTable` for the library). A command replaces a file only while it
 * still holds exactly those bytes and a command wrote them: a table the
 * user edited afterwards, or saved with `saveTable`, is the user's.
 *
 * @module
 */

import { sha256Hex } from "../fs/sha256_hex.ts";
import { TidepoolError } from "../errors/errors.ts";
import { NotOwnFileError, readOwnFile } from "../fs/own_file.ts";
import { isProvenanceText, provenancePath } from "../table/_provenance_json.ts";

/** Who wrote a table file: a command's `--to`, or `saveTable`. */
export type Writer = "command line" | "saveTable";

/** The record of one write. */
export interface OutputRecord {
  /** The SHA-256 of the bytes written, in hex. */
  sha256: string;
  /** Who wrote them. */
  by: Writer;
}

/** The sidecar field that holds the record. */
const FIELD = "written";

/** The record in a sidecar's text, if it holds a sound one. */
export function recordIn(text: string): OutputRecord | undefined {
  try {
    const record = JSON.parse(text)?.[FIELD];
    const sound = typeof record?.sha256 === "string" && /^[0-9a-f]{64}$/.test(record.sha256) &&
      (record.by === "command line" || record.by === "saveTable");
    return sound ? { sha256: record.sha256, by: record.by } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a sidecar's text is tidepool's: provenance, a record of a write, or both. */
export function isSidecarText(text: string): boolean {
  return isProvenanceText(text) || recordIn(text) !== undefined;
}

/**
 * The sidecar's text for a write: the provenance (when the format keeps it
 * there) with the record of the bytes written.
 *
 * @param provenance The provenance JSON text, or undefined for none.
 * @param bytes The bytes written at the table's name.
 * @param by Who wrote them.
 * @returns The sidecar's text.
 */
export async function sidecarText(
  provenance: string | undefined,
  bytes: Uint8Array,
  by: Writer,
): Promise<string> {
  const record: OutputRecord = { sha256: await sha256Hex(new Uint8Array(bytes)), by };
  const base = provenance === undefined ? {} : JSON.parse(provenance);
  return JSON.stringify({ ...base, [FIELD]: record }, null, 2);
}

/** Whose a file at a command's `--to` is, by its sidecar and its bytes. */
export type Ownership =
  | { kind: "command" }
  | { kind: "none" | "saveTable" | "changed" | "sidecar"; sidecar: string; why: string };

/**
 * Decides whether a command may replace the file at a path: only when its
 * sidecar records a command's write of exactly the bytes it holds now.
 *
 * @param path The table file (it exists).
 * @returns `command` when replaceable, else why not.
 */
export async function ownershipOf(path: string): Promise<Ownership> {
  const sidecar = provenancePath(path);
  let text: string | undefined;
  try {
    text = await readOwnFile(sidecar);
  } catch (error) {
    if (!(error instanceof NotOwnFileError)) throw error;
    return { kind: "sidecar", sidecar, why: `${sidecar} beside it is ${error.what}` };
  }
  const record = text === undefined ? undefined : recordIn(text);
  if (record === undefined) {
    return {
      kind: "none",
      sidecar,
      why: `tidepool did not write it (${sidecar} beside it records no tidepool command's write)`,
    };
  }
  if (record.by !== "command line") {
    return {
      kind: "saveTable",
      sidecar,
      why: "it was saved with saveTable, so it is the user's table, not a command's output",
    };
  }
  if (record.sha256 !== await sha256Hex(await Deno.readFile(path))) {
    return {
      kind: "changed",
      sidecar,
      why:
        `it changed since tidepool wrote it (its SHA-256 is no longer the one ${sidecar} records)`,
    };
  }
  return { kind: "command" };
}

/**
 * Refuses, right before a command's write, a file at its `--to` that is not
 * the command's to replace now. Whose the file is was decided before the
 * first request, but the write comes after the last page: a file that
 * appeared meanwhile (a table the user saved there), or a command's file
 * edited meanwhile, is the user's. Nothing there is fine; a link or another
 * kind of file is refused; a regular file must hold the bytes a command's
 * sidecar records, or the bytes the caller vouches for (a harvest's ledger).
 *
 * @param path The `--to` file.
 * @param vouched The SHA-256 of bytes the caller knows as its own, if any.
 * @throws {TidepoolError} When the file there is not the command's to replace.
 */
export async function refuseReplacedMeanwhile(path: string, vouched?: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  let why: string | undefined;
  if (info.isSymlink) why = "it is a symbolic link";
  else if (!info.isFile) why = "it is not a regular file";
  else if (vouched !== undefined && vouched === await sha256Hex(await Deno.readFile(path))) return;
  else {
    const owner = await ownershipOf(path);
    if (owner.kind === "command") return;
    why = owner.why;
  }
  throw new TidepoolError(
    `Refused to replace ${path}: ${why}; it changed while this command ran, so the table was not written`,
    {
      hint:
        `tidepool replaces only files it wrote, as it wrote them: run again with --to another name, or remove ${path} yourself if it may go`,
    },
  );
}
