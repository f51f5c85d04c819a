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
 * @module
 */

import type { ColumnTable } from "arquero";
import type { OaiPmh } from "../archive/oai/oai_pmh.ts";
import type { HarvestOptions } from "../archive/oai/types.ts";

/** What one run harvested. */
export interface HarvestRun {
  /** Every record, or the records changed since the last delivered run. */
  table: ColumnTable;
  /** Whether the run asked only for changes since a delivered run. */
  incremental: boolean;
  /** Whether the run continued an interrupted one. */
  resumed: boolean;
}

/** The part of a state file this reads: whether a run is under way, and the last high water. */
interface StateHead {
  inProgress?: boolean;
  highWater?: string | null;
}

/** A state file's head, or undefined when there is none. */
async function readHead(path: string): Promise<StateHead | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as StateHead;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    // An unreadable state is the harvester's to report, with its own hint.
    return {};
  }
}

async function removeIfThere(path: string): Promise<void> {
  await Deno.remove(path).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/**
 * Harvests with `state`, delivers the records, then commits the state.
 *
 * @param oai The harvester.
 * @param options The harvest; `state` is the committed state file.
 * @param continuing Whether the delivered records of earlier runs are still
 *   where `deliver` puts them; if not, the harvest starts over from the beginning.
 * @param deliver Puts the records where they belong (a file, standard output).
 * @returns The run.
 */
export async function harvestThenCommit(
  oai: OaiPmh,
  options: HarvestOptions & { state: string },
  continuing: boolean,
  deliver: (run: HarvestRun) => Promise<void>,
): Promise<HarvestRun> {
  const committed = options.state;
  const pending = `${committed}.pending`;
  // The state goes where --to or --state put it, in a folder that may not exist yet.
  const slash = committed.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(committed.slice(0, slash), { recursive: true });
  const head = await readHead(pending);
  const resumed = head?.inProgress === true &&
    (continuing || !head.highWater); // a resumed increment needs its earlier records
  if (!resumed) {
    await removeIfThere(pending);
    if (continuing) {
      await Deno.copyFile(committed, pending).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
  }
  const incremental = !!(await readHead(pending))?.highWater;
  const table = await oai.harvest({ ...options, state: pending });
  const run = { table, incremental, resumed };
  await deliver(run);
  await Deno.rename(pending, committed);
  return run;
}
