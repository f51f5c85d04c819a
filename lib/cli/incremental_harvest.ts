/**
 * A harvest whose state moves on only once its records are delivered. An
 * OAI-PMH harvest with a state file marks itself complete (and raises its
 * high-water datestamp) when its last page is read; were the process to
 * stop before the records reached their file, the next run would ask only
 * for later changes and these would be lost. So the run works on a copy of
 * the state (`<state>.pending`), and the copy replaces the state only after
 * `deliver` succeeded. A pending copy that is still in progress is resumed;
 * one that is complete was never delivered, and is dropped.
 *
 * The whole run holds the state's lock (`<state>.lock`): a second run on
 * the same state refuses at once, so the pending copy is only ever one
 * run's, and a pending copy found is an interrupted run's. Every file is
 * read and written as tidepool's own (no link followed).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { OaiPmh } from "../archive/oai/oai_pmh.ts";
import type { HarvestOptions } from "../archive/oai/types.ts";
import { moveOwnFile, readOwnFile, removeOwnFile, writeOwnFile } from "../fs/own_file.ts";
import { lockState } from "./_state_files.ts";

/** What one run harvested. */
export interface HarvestRun {
  /** Every record, or the records changed since the last delivered run. */
  table: ColumnTable;
  /** Whether the run asked only for changes since a delivered run. */
  incremental: boolean;
  /** Whether the run continued an interrupted one. */
  resumed: boolean;
}

/** A file `deliver` wrote under a pending name, and the name it takes when the run commits. */
export type PendingFile = readonly [pending: string, committed: string];

/** The part of a state file this reads: whether a run is under way, and the last high water. */
interface StateHead {
  inProgress?: boolean;
  highWater?: string | null;
}

/** The pending copy of a state. */
export function pendingPath(state: string): string {
  return `${state}.pending`;
}

/** A state file's head, or undefined when there is none; a link there is refused. */
async function readHead(path: string): Promise<StateHead | undefined> {
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as StateHead;
  } catch {
    // An unreadable state is the harvester's to report, with its own hint.
    return {};
  }
}

/**
 * Harvests with `state`, delivers the records, then commits the state.
 *
 * @param oai The harvester.
 * @param options The harvest; `state` is the committed state file.
 * @param continuing Whether the delivered records of earlier runs are still
 *   where `deliver` puts them (if not, the harvest starts over from the
 *   beginning); a function is asked once the lock is held.
 * @param deliver Puts the records where they belong (a file, standard
 *   output); may return files it wrote under pending names, renamed just
 *   before the state.
 * @returns The run.
 * @throws {BusyError} When another run holds the state.
 */
export async function harvestThenCommit(
  oai: OaiPmh,
  options: HarvestOptions & { state: string },
  continuing: boolean | (() => Promise<boolean>),
  deliver: (run: HarvestRun) => Promise<void | readonly PendingFile[]>,
): Promise<HarvestRun> {
  const committed = options.state;
  const pending = pendingPath(committed);
  using _lock = await lockState(committed, "harvest");
  await readHead(committed); // a link at the state's name is refused before anything is sent
  const goOn = typeof continuing === "function" ? await continuing() : continuing;
  const head = await readHead(pending);
  const resumed = head?.inProgress === true &&
    (goOn || !head.highWater); // a resumed increment needs its earlier records
  if (!resumed) {
    await removeOwnFile(pending);
    const text = goOn ? await readOwnFile(committed) : undefined;
    if (text !== undefined) await writeOwnFile(pending, text);
  }
  const incremental = !!(await readHead(pending))?.highWater;
  const table = await oai.harvest({ ...options, state: pending });
  const run = { table, incremental, resumed };
  const written = await deliver(run) ?? [];
  for (const [from, to] of written) await moveOwnFile(from, to);
  await moveOwnFile(pending, committed);
  return run;
}
