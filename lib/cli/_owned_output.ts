/**
 * Which output files are tidepool's to replace. A command replaces a file
 * at `--to` only when tidepool wrote it: its provenance beside it (CSV,
 * NDJSON, JSON) or inside it (Parquet, Arrow) says so, or a harvest's
 * ledger names it with the SHA-256 it still has. Anything else there (a
 * user's budget.csv, a link, a folder) is refused before a request is sent.
 *
 * A harvest into a file also keeps the ledger beside its state
 * (`<state>.output.json`): the file it wrote, that file's SHA-256, and each
 * row's identifier exactly as harvested, since a file read back may not
 * give it again (CSV reads `00123` as 123, `2020-01-01` as a date, and a
 * formula-like `@x` as `'@x`). The next run merges by these identifiers.
 *
 * @module
 */

import { sha256Hex } from "../bundle/_sha256.ts";
import { readOwnFile, writeOwnFile } from "../fs/own_file.ts";
import type { TableFormat } from "../files/encode_table.ts";
import { readTable } from "../files/read_table.ts";
import { provenancePath } from "../table/_provenance_json.ts";
import { provenance } from "../table/provenance.ts";
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

/** Whether a saved table carries tidepool's provenance, beside it or inside it. */
export async function isTidepoolTable(path: string, format: TableFormat): Promise<boolean> {
  try {
    if (format === "parquet" || format === "arrow") {
      return provenance(await readTable(path)) !== undefined;
    }
    return isProvenanceFile(provenancePath(path));
  } catch {
    return false;
  }
}

/** Whether a file is a provenance sidecar tidepool wrote (a link or another file is not). */
async function isProvenanceFile(path: string): Promise<boolean> {
  try {
    const record = JSON.parse(await readOwnFile(path) ?? "null");
    return ["service", "operation", "tidepoolVersion"].every((key) =>
      typeof record?.[key] === "string"
    );
  } catch {
    return false;
  }
}

/** The refusal of a file tidepool did not write. */
export function foreignFile(path: string, why: string): UsageError {
  return new UsageError(`Refused to replace ${path}: ${why}`, {
    hint: `tidepool replaces only files it wrote: give --to a new name, or move ${path} away first`,
  });
}

/**
 * Refuses a `--to` file, or the provenance sidecar beside it, that tidepool
 * did not write.
 *
 * @param path The `--to` file.
 * @param format Its format.
 * @throws {UsageError} When something other than tidepool's table is there.
 */
export async function refuseForeignOutput(path: string, format: TableFormat): Promise<void> {
  const info = await entryAt(path);
  const sidecarFormat = format === "csv" || format === "ndjson" || format === "json";
  if (info !== undefined) {
    if (info.isSymlink) throw foreignFile(path, "it is a symbolic link");
    if (!info.isFile) throw foreignFile(path, "it is not a regular file");
    if (!(await isTidepoolTable(path, format))) {
      throw foreignFile(
        path,
        `it exists and tidepool did not write it (no tidepool provenance ${
          sidecarFormat ? `in ${provenancePath(path)} beside it` : "in it"
        })`,
      );
    }
    return;
  }
  const sidecar = provenancePath(path);
  if (sidecarFormat && await entryAt(sidecar) && !(await isProvenanceFile(sidecar))) {
    throw foreignFile(
      sidecar,
      "it exists and is not the provenance tidepool writes beside a table",
    );
  }
}
