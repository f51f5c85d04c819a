/**
 * Writes that survive a restart: when the sandbox is given a data
 * directory, its data (accounts, databases, resources, assets, domains) and
 * key table (hashes only) are saved as one JSON snapshot after every write,
 * and loaded from it on start. Uploaded bytes live beside it.
 *
 * @module
 */

import type { ArchiveState } from "./_state.ts";
import type { ArchiveSeed, SeedKey } from "./seed.ts";
import { writeFileAtomic } from "../../fs/write_file_atomic.ts";

/** What a snapshot holds. */
export interface Snapshot {
  seed: ArchiveSeed;
  keys: SeedKey[];
}

/** Reads the snapshot of a data directory, if there is one. */
export async function loadSnapshot(path: string): Promise<Snapshot | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as Snapshot;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Saves the snapshot (write to a temporary name, then rename). */
export async function saveSnapshot(state: ArchiveState): Promise<void> {
  const path = state.storage.snapshot;
  if (!path) return;
  const snapshot: Snapshot = { seed: state.seed, keys: state.keys };
  await writeFileAtomic(path, JSON.stringify(snapshot));
}
