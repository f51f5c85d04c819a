/**
 * A harvest's state that belongs to another harvest (the repository moved
 * to another address, another set or format was asked) is refused naming
 * the file the user keeps, `<file>.harvest.json`, never only its pending
 * copy; and `--restart` removes that state and every file tidepool keeps
 * beside it, so the harvest starts over in one command.
 *
 * @module
 */

import { redact } from "../errors/redact.ts";
import { removeOwnFile } from "../fs/own_file.ts";
import { loadState, spoolPath } from "../archive/oai/_state.ts";
import { UsageError } from "./exit_codes.ts";
import { lockState } from "./_state_files.ts";
import { ledgerPath } from "./_owned_output.ts";
import { pendingPath } from "./incremental_harvest.ts";

/** What a run harvests, as its state records it. */
export interface HarvestIdentity {
  endpoint: string;
  verb: string;
  metadataPrefix: string;
  set: string | null;
}

/** The files tidepool keeps for a state: the state, its pending copy, their spools and ledgers. */
export function stateFiles(state: string): string[] {
  return [state, pendingPath(state)].flatMap((path) => [path, spoolPath(path), ledgerPath(path)]);
}

/**
 * Removes a harvest's state and the files kept beside it (`--restart`),
 * under the state's lock.
 *
 * @param state The state file.
 * @returns The files removed.
 */
export async function restartHarvest(state: string): Promise<string[]> {
  using _lock = await lockState(state, "harvest");
  const removed: string[] = [];
  for (const path of stateFiles(state)) {
    try {
      await Deno.lstat(path);
    } catch {
      continue;
    }
    await removeOwnFile(path);
    removed.push(path);
  }
  return removed;
}

/**
 * Refuses a state (or its pending copy) that another harvest wrote, naming
 * the state file the user knows and the flag that starts over.
 *
 * @param state The state file (`--state`, or `<file>.harvest.json`).
 * @param endpoint The endpoint harvested (its key is not compared: redacted as the state keeps it).
 * @param wanted The verb, format and set of this run.
 * @throws {UsageError} When a state of another harvest is there.
 */
export async function refuseOtherHarvest(
  state: string,
  endpoint: string,
  wanted: Omit<HarvestIdentity, "endpoint">,
): Promise<void> {
  const identity: HarvestIdentity = { endpoint: redact(endpoint), ...wanted };
  for (const path of [state, pendingPath(state)]) {
    const saved = await loadState(path);
    if (saved === undefined) continue;
    for (const key of ["endpoint", "verb", "metadataPrefix", "set"] as const) {
      if (saved[key] === identity[key]) continue;
      throw new UsageError(
        `The harvest state ${state} belongs to another harvest: its ${key} is ${saved[key]}, not ${
          identity[key]
        }`,
        {
          hint:
            `Run the same command with --restart to harvest from the beginning (it removes ${state} and the files tidepool keeps beside it), or give --state a file of its own`,
        },
      );
    }
  }
}
