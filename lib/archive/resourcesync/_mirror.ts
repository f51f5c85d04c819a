/**
 * mirror(): a baseline from the resource list, increments from the change
 * list, and a periodic full re-list, which is the only way to find
 * deletions since the source does not report them.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { buildTable } from "../../table/build_table.ts";
import { parseUtc } from "../oai/_dates.ts";
import { entrySchema } from "./_schema.ts";
import type { SitemapEntry } from "./_sitemap.ts";
import type { MirrorOptions, MirrorResult } from "./types.ts";
import { writeFileAtomic } from "../../fs/write_file_atomic.ts";

interface MirrorState {
  version: 1;
  /** Changes at or after this time are asked for next. */
  since: string;
  /** When the last full list was read. */
  lastFullList: string;
}

interface MirrorSource {
  resourceEntries(): Promise<{ entries: SitemapEntry[]; at: string | null }>;
  changeEntries(url?: string, from?: string | Date): Promise<SitemapEntry[]>;
}

const DAY_MS = 24 * 3600 * 1000;

/** Runs one mirror step. */
export async function runMirror(
  source: MirrorSource,
  options: MirrorOptions,
): Promise<MirrorResult> {
  const relistMs = (options.relistAfterDays ?? 30) * DAY_MS;
  const locsPath = `${options.state}.locs.txt`;
  const state = await readState(options.state);
  const now = new Date();
  if (!state || now.getTime() - Date.parse(state.lastFullList) >= relistMs) {
    const started = now.toISOString();
    const { entries, at } = await source.resourceEntries();
    if (!state) await refuseForeign(locsPath);
    const previous = state ? await readLocs(locsPath) : undefined;
    const current = new Set(entries.map((e) => e.loc));
    const removed = previous ? [...previous].filter((loc) => !current.has(loc)) : [];
    await writeFileAtomic(locsPath, [...current].join("\n"));
    const since = at ?? latest(entries) ?? started;
    await writeFileAtomic(
      options.state,
      JSON.stringify({ version: 1, since, lastFullList: started } satisfies MirrorState),
    );
    const kind = state ? "relist" : "baseline";
    return {
      kind,
      table: buildTable(entrySchema, entries),
      removed,
      deletionsReported: false,
      note: kind === "baseline"
        ? "Baseline of every resource. Later runs give only created and updated resources: the source does not report deletions, so a full re-list runs every relistAfterDays to find them"
        : `Full re-list: ${removed.length} resources are gone since the previous full list`,
      nextRelistDue: new Date(Date.parse(started) + relistMs),
    };
  }
  const entries = await source.changeEntries(undefined, state.since);
  const newest = latest(entries);
  const since = newest && Date.parse(newest) >= Date.parse(state.since)
    ? new Date(Date.parse(newest) + 1).toISOString()
    : state.since;
  const known = await readLocs(locsPath);
  const added = entries.map((e) => e.loc).filter((loc) => !known.has(loc));
  if (added.length) {
    await Deno.writeTextFile(locsPath, `\n${[...new Set(added)].join("\n")}`, { append: true });
  }
  await writeFileAtomic(options.state, JSON.stringify({ ...state, since } satisfies MirrorState));
  return {
    kind: "changes",
    table: buildTable(entrySchema, entries),
    removed: [],
    deletionsReported: false,
    note:
      "Created and updated resources since the last run. Deletions are not reported by the source; the periodic full re-list finds them",
    nextRelistDue: new Date(Date.parse(state.lastFullList) + relistMs),
  };
}

function latest(entries: readonly SitemapEntry[]): string | undefined {
  let best: Date | undefined;
  for (const entry of entries) {
    const when = parseUtc((entry.datetime ?? entry.lastmod) ?? undefined);
    if (when && (!best || when > best)) best = when;
  }
  return best?.toISOString();
}

async function readState(path: string): Promise<MirrorState | undefined> {
  try {
    const state = JSON.parse(await Deno.readTextFile(path)) as MirrorState;
    if (state.version !== 1 || !state.since) throw new Error("unknown state");
    return state;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new TidepoolError(`Cannot read the mirror state file ${path}`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "Reading it said",
      hint: "Delete it to start with a new baseline",
    });
  }
}

/** A list of locations with no mirror state beside it is not tidepool's: it is never replaced. */
async function refuseForeign(path: string): Promise<void> {
  try {
    await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  throw new TidepoolError(`Cannot start a mirror: ${path} exists, and tidepool did not write it`, {
    hint: "Give the mirror a state path of its own (its list of locations is kept beside it)",
  });
}

async function readLocs(path: string): Promise<Set<string>> {
  try {
    return new Set((await Deno.readTextFile(path)).split("\n").filter((l) => l !== ""));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Set();
    throw error;
  }
}
