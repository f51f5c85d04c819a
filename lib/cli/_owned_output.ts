/**
 * Which output files are tidepool's to replace. A command replaces a file
 * at `--to` only when a command wrote it and it still holds exactly what was
 * written: the sidecar beside it (`<file>.provenance.json`) records the
 * SHA-256 of the command's write, or a harvest's ledger names it with the
 * SHA-256 it still has. Anything else there (a user's budget.csv, an
 * output edited since, a table saved with `saveTable`, a link, a folder)
 * is refused before a request is sent.
 *
 * A harvest into a file also keeps the ledger beside its state
 * (`<state>.output.json`): the file it wrote, that file's SHA-256, and each
 * row's identifier exactly as harvested, since a file read back may not
 * give it again (CSV reads `00123` as 123, `2020-01-01` as a date, and a
 * formula-like `@x` as `'@x`). The next run merges by these identifiers.
 *
 * @module
 */

import { sha256Hex } from "../fs/sha256_hex.ts";
import { readOwnFile, writeOwnFile } from "../fs/own_file.ts";
import { isSidecarText, ownershipOf } from "../files/_output_record.ts";
import { provenancePath } from "../table/_provenance_json.ts";
import { UsageError } from "./exit_codes.ts";
import { canonicalPath } from "./_state_files.ts";

/** What a harvest wrote into its file, kept beside its state. */
export interface HarvestLedger {
  version: 1;
  /** The file, as {@linkcode canonicalPath} gives it. */
  file: string;
  /** The SHA-256 of the file's bytes, in hex. */
  sha256: string;
  /** Each row's identifier, in the file's order, exactly as harvested. */
  identifiers: string[];
}

/** The ledger of a state file (or of its pending copy). */
export function ledgerPath(state: string): string {
  return `${state}.output.json`;
}

/** What is at a path, without following a link; undefined when nothing is. */
async function entryAt(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
}

/** The SHA-256 of a file's bytes, in hex. */
export async function fileDigest(path: string): Promise<string> {
  return sha256Hex(await Deno.readFile(path));
}

/** A ledger, or undefined when there is none or it is not one. */
export async function readLedger(path: string): Promise<HarvestLedger | undefined> {
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  try {
    const ledger = JSON.parse(text) as HarvestLedger;
    const sound = ledger?.version === 1 && typeof ledger.file === "string" &&
      typeof ledger.sha256 === "string" && Array.isArray(ledger.identifiers) &&
      ledger.identifiers.every((id) => typeof id === "string");
    return sound ? ledger : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the ledger of a file just written.
 *
 * @param path The ledger's path.
 * @param file The file the harvest wrote.
 * @param identifiers Its rows' identifiers, in order.
 */
export async function writeLedger(
  path: string,
  file: string,
  identifiers: readonly string[],
): Promise<void> {
  const ledger: HarvestLedger = {
    version: 1,
    file: await canonicalPath(file),
    sha256: await fileDigest(file),
    identifiers: [...identifiers],
  };
  await writeOwnFile(path, JSON.stringify(ledger));
}

/** Whether a ledger names this file with the bytes it has now. */
export async function ledgerMatches(ledger: HarvestLedger, file: string): Promise<boolean> {
  return ledger.file === await canonicalPath(file) && ledger.sha256 === await fileDigest(file);
}

/** The refusal of a file tidepool did not write. */
export function foreignFile(path: string, why: string): UsageError {
  return new UsageError(`Refused to replace ${path}: ${why}`, {
    hint:
      `tidepool replaces only files it wrote, as it wrote them: give --to another name, or remove ${path} yourself if it may go`,
  });
}

/**
 * Refuses a `--to` file that a command did not write, or that changed since
 * (its sidecar records the SHA-256 of a command's write, and the file must
 * still hold exactly those bytes), and a sidecar that is not tidepool's.
 *
 * @param path The `--to` file.
 * @throws {UsageError} When the file there is not a command's unchanged output.
 */
export async function refuseForeignOutput(path: string): Promise<void> {
  const info = await entryAt(path);
  if (info !== undefined) {
    if (info.isSymlink) throw foreignFile(path, "it is a symbolic link");
    if (!info.isFile) throw foreignFile(path, "it is not a regular file");
    const owner = await ownershipOf(path);
    if (owner.kind !== "command") throw foreignFile(path, owner.why);
    return;
  }
  const sidecar = provenancePath(path);
  const there = await entryAt(sidecar);
  if (there && !(there.isFile && isSidecarText(await readOwnFile(sidecar) ?? ""))) {
    throw new UsageError(
      `Refused to replace ${sidecar}: it exists and is not the provenance tidepool writes beside a table`,
      {
        hint:
          `tidepool replaces only files it wrote: give --to another name, or remove ${sidecar} yourself`,
      },
    );
  }
}
