/**
 * The files of a harvest into a file, decided before anything is sent:
 * whether the file at `--to` is this harvest's to merge into (its ledger
 * names it with the bytes it has), another tidepool table to replace, or
 * someone else's to refuse; and that `--state` and `--to` name different
 * files, none of them one the other keeps beside it.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { provenancePath } from "../table/_provenance_json.ts";
import { HARVEST_STATE_FILE } from "../archive/oai/harvest_dataset.ts";
import { UsageError } from "./exit_codes.ts";
import type { OutputTarget } from "./_output.ts";
import {
  foreignFile,
  type HarvestLedger,
  ledgerMatches,
  ledgerPath,
  readLedger,
  refuseForeignOutput,
} from "./_owned_output.ts";
import { canonicalPath } from "./_state_files.ts";
import { pendingPath } from "./incremental_harvest.ts";

/** Whose the file at `--to` is, as a harvest sees it. */
export interface OutputClaim {
  /** Whether it holds this harvest's earlier records, to merge the changes into. */
  continuing: boolean;
  /** Their identifiers, in the file's order, exactly as harvested. */
  identifiers?: readonly string[];
  /** The SHA-256 the ledger gives the file, when it holds this harvest's records. */
  sha256?: string;
  /** A line to tell the user (the file is missing, or another command wrote it). */
  note?: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Decides whose the file at `--to` is. It is this harvest's when the
 * ledger beside the state (or beside its pending copy, left by a run
 * stopped between writing the file and committing) names it with the
 * SHA-256 it still has; another tidepool table (its provenance says so) is
 * harvested into whole again (when a command wrote it and it is unchanged); anything else is refused.
 *
 * @param path The `--to` file.
 * @param state The harvest's state file.
 * @returns The claim.
 * @throws {UsageError} When the file (or its sidecar) is not tidepool's, or changed since.
 */
export async function claimOutput(
  path: string,
  state: string,
): Promise<OutputClaim> {
  const ledgers: HarvestLedger[] = [];
  for (const at of [ledgerPath(state), ledgerPath(pendingPath(state))]) {
    const ledger = await readLedger(at);
    if (ledger) ledgers.push(ledger);
  }
  const file = await canonicalPath(path);
  const named = ledgers.some((ledger) => ledger.file === file);
  if (!(await exists(path))) {
    // The sidecar of a file this harvest wrote is its own; any other is checked.
    if (!named) await refuseForeignOutput(path);
    const note = await exists(state)
      ? `${path} is missing, so every record is harvested again`
      : undefined;
    return { continuing: false, note };
  }
  for (const ledger of ledgers) {
    if (await ledgerMatches(ledger, path)) {
      return { continuing: true, identifiers: ledger.identifiers, sha256: ledger.sha256 };
    }
  }
  if (named) {
    throw foreignFile(
      path,
      "it changed since tidepool harvested into it (its SHA-256 is not the one the harvest keeps), so the changes cannot be merged into it and it is not replaced",
    );
  }
  await refuseForeignOutput(path);
  return {
    continuing: false,
    note: `${path} was written by another tidepool command, so every record is harvested into it`,
  };
}

/** The identifiers of a harvested table, in row order. */
export function identifiersOf(table: ColumnTable): string[] {
  return Array.from(table.array("identifier") as ArrayLike<unknown>, (id) => String(id));
}

/**
 * Refuses a `--state` that names the output, its provenance sidecar or a
 * file inside an output folder (other than the folder's own state), and a
 * `--to` that names one of the files kept beside the state.
 *
 * @param target Where the records go.
 * @param state The state file, if any.
 * @throws {UsageError} When two of them are one file.
 */
export async function refuseSharedPaths(
  target: OutputTarget,
  state: string | undefined,
): Promise<void> {
  if (state === undefined || target.kind === "stdout") return;
  const kept = await canonicalPath(state);
  const refuse = (why: string) =>
    new UsageError(`Refused --state ${state}: ${why}`, {
      hint:
        "Give the state a file of its own, or leave out --state: it is kept beside the file as <file>.harvest.json, or inside a folder as _harvest_state.json",
    });
  if (target.kind === "folder") {
    const folder = await canonicalPath(target.path);
    if (kept === folder) throw refuse(`it is the output folder ${target.path}/`);
    if (kept.startsWith(`${folder}/`) && kept !== `${folder}/${HARVEST_STATE_FILE}`) {
      throw refuse(`it is inside the output folder ${target.path}/, among the dataset's files`);
    }
    return;
  }
  const output = await canonicalPath(target.path);
  if (kept === output) throw refuse(`it is the output file ${target.path}`);
  if (kept === await canonicalPath(provenancePath(target.path))) {
    throw refuse(`it is the provenance file beside ${target.path}`);
  }
  if (output.startsWith(`${kept}.`)) {
    throw new UsageError(
      `Refused --to ${target.path}: it is one of the files tidepool keeps beside the state ${state}`,
      { hint: "Give --to a file name of its own" },
    );
  }
}
