/**
 * mirror(): a baseline from the resource list, increments from the change
 * list, and a periodic full re-list, which is the only way to find
 * deletions since the source does not report them. Given a folder, it also
 * keeps the resources' contents there (see `_mirror_fetch.ts`).
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { BusyError, TidepoolError } from "../../errors/errors.ts";
import { type HeldLock, tryHoldLock } from "../../fs/file_lock.ts";
import { buildTable } from "../../table/build_table.ts";
import type { HttpClient } from "../../http/client.ts";
import { parseUtc } from "../oai/_dates.ts";
import { entrySchema } from "./_schema.ts";
import type { SitemapEntry } from "./_sitemap.ts";
import type { MirrorOptions, MirrorResult } from "./types.ts";
import { appendOwnFile, openOwnFile, readOwnFile, writeOwnFile } from "../../fs/own_file.ts";
import {
  isJournal,
  isToFetch,
  journalFolders,
  MirrorJournal,
  readPending,
  versionOf,
  writePending,
} from "./_mirror_journal.ts";
import { fileSha256 } from "./_mirror_download.ts";
import { fetchAll } from "./_mirror_fetch.ts";
import { realFoldersTo } from "./_mirror_layout.ts";
import { removeLeftovers } from "./_mirror_leftovers.ts";
import { askedLoc, keepEntries, keptLoc } from "./_mirror_locs.ts";
import { MirrorError, type MirrorFileError } from "./mirror_error.ts";

interface MirrorState {
  version: 1;
  /** Changes at or after this time are asked for next. */
  since: string;
  /** When the last full list was read. */
  lastFullList: string;
  /** The folder the files are kept in (its real path), once the mirror keeps files. */
  dir?: string;
}

interface MirrorSource {
  resourceEntries(): Promise<{ entries: SitemapEntry[]; at: string | null }>;
  changeEntries(url?: string, from?: string | Date): Promise<SitemapEntry[]>;
  mirrorContext(): Promise<
    { http: HttpClient; host: string; source: string; allowOtherHosts: boolean }
  >;
}

/** What one step listed, before anything is written. */
interface Listing {
  kind: MirrorResult["kind"];
  entries: SitemapEntry[];
  removed: string[];
  state: MirrorState;
  /** The list of locations to write beside the state: whole, or what to append. */
  locs: { whole: string[] } | { added: string[] };
  /** The location each entry was listed as (entries keep theirs without credentials). */
  listed: Map<string, string>;
  /** Listed resources refused before anything was stored (a secret in a kept location). */
  refused: MirrorFileError[];
}

const DAY_MS = 24 * 3600 * 1000;

/** Runs one mirror step. */
export async function runMirror(
  source: MirrorSource,
  options: MirrorOptions,
): Promise<MirrorResult> {
  const relistMs = (options.relistAfterDays ?? 30) * DAY_MS;
  const paths = sidecars(options.state);
  // One run at a time: before anything is read, so a second run changes nothing.
  using _lock = await lockMirror(options.state, paths.lock);
  const ownFiles = [options.state, paths.locs, paths.journal, paths.pending];
  await removeLeftovers(undefined, [], undefined, "", ownFiles);
  const state = await readState(options.state);
  if (!state) {
    // A first run stopped before its state moved on leaves its journal and list to fetch: kept.
    await refuseForeign(paths.locs);
    if (!(await isJournal(paths.journal))) await refuseForeign(paths.journal);
    if (!(await isToFetch(paths.pending))) await refuseForeign(paths.pending);
  }
  if (state?.dir !== undefined && options.dir === undefined) {
    throw new TidepoolError(`This mirror keeps its files in ${state.dir}: pass dir`, {
      hint: "A run without them would move the mirror on and leave its folder behind",
    });
  }
  const root = options.dir === undefined
    ? undefined
    : await openFolder(options.dir, state, [options.state, ...Object.values(paths)], paths.journal);
  const listing = await list(source, state, relistMs, root, paths.locs);
  const kind = listing.kind;
  const result: MirrorResult = {
    kind,
    table: buildTable(entrySchema, listing.entries),
    removed: listing.removed,
    deletionsReported: false,
    note: kind === "baseline"
      ? "Baseline of every resource. Later runs give only created and updated resources: the source does not report deletions, so a full re-list runs every relistAfterDays to find them"
      : kind === "relist"
      ? `Full re-list: ${listing.removed.length} resources are gone since the previous full list`
      : "Created and updated resources since the last run. Deletions are not reported by the source; the periodic full re-list finds them",
    nextRelistDue: new Date(Date.parse(listing.state.lastFullList) + relistMs),
    written: [],
    unchanged: 0,
    deleted: [],
    kept: [],
  };
  if (root === undefined) {
    await saveListing(options.state, paths.locs, listing);
    if (listing.refused.length > 0) throw new MirrorError(listing.refused, result);
    return result;
  }
  const journal = await MirrorJournal.open(paths.journal);
  try {
    // What is still to fetch is saved before the state moves on: nothing listed is lost.
    const kept = keepEntries(await readPending(paths.pending));
    const pending = kept.entries;
    const context = await source.mirrorContext();
    // A stopped run's half files, beside the files it was fetching (those it left to fetch).
    await removeLeftovers(root, pending, journal, context.host, []);
    const toFetch = await plan(listing, pending, journal, root, result);
    await writePending(paths.pending, toFetch);
    await saveListing(options.state, paths.locs, {
      ...listing,
      state: { ...listing.state, dir: root },
    });
    await removeGone(listing.removed, journal, root, result);
    const outcome = await fetchAll(toFetch, {
      ...context,
      askFor: (loc) => askedLoc(loc, listing.listed, context.source),
      root,
      journal,
      maxBytes: options.maxBytes,
      signal: options.signal,
    });
    result.written = outcome.written;
    await writePending(paths.pending, outcome.failed.map((f) => f.entry));
    await journal.compact();
    const failed = [...listing.refused, ...kept.refused, ...outcome.failed.map((f) => f.error)];
    if (failed.length > 0) throw new MirrorError(failed, result);
    return result;
  } finally {
    await journal.close();
  }
}

/** Lists a baseline or re-list (every resource) or the changes since the last run. */
async function list(
  source: MirrorSource,
  state: MirrorState | undefined,
  relistMs: number,
  root: string | undefined,
  locsPath: string,
): Promise<Listing> {
  const now = new Date();
  // A mirror that kept no files until now lists everything once, to fetch everything.
  const startsFiles = root !== undefined && state?.dir === undefined;
  if (!state || startsFiles || now.getTime() - Date.parse(state.lastFullList) >= relistMs) {
    const started = now.toISOString();
    const read = await source.resourceEntries();
    const { entries, listed, refused } = keepEntries(read.entries);
    const at = read.at;
    const current = [...new Set(entries.map((e) => e.loc))];
    const listedNow = new Set(current);
    const previous = state ? await readLocs(locsPath) : new Set<string>();
    return {
      kind: state ? "relist" : "baseline",
      entries,
      removed: [...previous].filter((loc) => !listedNow.has(loc)),
      state: { version: 1, since: at ?? latest(entries) ?? started, lastFullList: started },
      locs: { whole: current },
      listed,
      refused,
    };
  }
  const { entries, listed, refused } = keepEntries(
    await source.changeEntries(undefined, state.since),
  );
  const newest = latest(entries);
  const since = newest && Date.parse(newest) >= Date.parse(state.since)
    ? new Date(Date.parse(newest) + 1).toISOString()
    : state.since;
  return {
    kind: "changes",
    entries,
    removed: [],
    state: { ...state, since },
    locs: { added: [...new Set(entries.map((e) => e.loc))] },
    listed,
    refused,
  };
}

/** The state file's companions: the list of locations, the journal of files, what is still to fetch. */
function sidecars(state: string) {
  return {
    locs: `${state}.locs.txt`,
    journal: `${state}.files.jsonl`,
    pending: `${state}.pending.json`,
    lock: `${state}.lock`,
  };
}

/**
 * Holds the mirror's operating-system lock (`<state>.lock`) for the run: a
 * second run on the same state, in this process or another, is refused at
 * once. The command line holds its own lock on its state and calls this on
 * a pending copy, whose lock is another file: the two never wait on each other.
 */
async function lockMirror(state: string, path: string): Promise<HeldLock> {
  await Deno.mkdir(dirname(resolve(path)), { recursive: true });
  const lock = await tryHoldLock(await openOwnFile(path));
  if (lock === undefined) {
    throw new BusyError(
      `Another mirror is running with the state ${state}; this run changed nothing`,
      { hint: "Wait for it to end, then run again: one run at a time keeps a mirror" },
    );
  }
  return lock;
}

/** Writes the list of locations and the state, in that order. */
async function saveListing(statePath: string, locsPath: string, listing: Listing): Promise<void> {
  if ("whole" in listing.locs) {
    await writeOwnFile(locsPath, listing.locs.whole.join("\n"));
  } else {
    const known = await readLocs(locsPath);
    const added = listing.locs.added.filter((loc) => !known.has(loc));
    if (added.length) {
      await appendOwnFile(locsPath, `\n${added.join("\n")}`);
    }
  }
  await writeOwnFile(statePath, JSON.stringify(listing.state satisfies MirrorState));
}

/**
 * The resources to fetch: those listed now and those an earlier run left,
 * less the ones the folder holds as listed (same version, file in place).
 */
async function plan(
  listing: Listing,
  pending: SitemapEntry[],
  journal: MirrorJournal,
  root: string,
  result: MirrorResult,
): Promise<SitemapEntry[]> {
  const wanted = new Map<string, SitemapEntry>();
  for (const entry of [...pending, ...listing.entries]) wanted.set(entry.loc, entry);
  for (const loc of listing.removed) wanted.delete(loc);
  const toFetch: SitemapEntry[] = [];
  for (const entry of wanted.values()) {
    const record = journal.get(entry.loc);
    const held = record && record.version === versionOf(entry) &&
      await Deno.lstat(`${root}/${record.path}`).then(
        (info) => info.isFile && info.size === record.bytes,
        () => false,
      );
    if (held || await heldAsClaimed(entry, journal, root)) result.unchanged++;
    else toFetch.push(entry);
  }
  return toFetch;
}

/**
 * A file an earlier run claimed and named but never recorded (stopped, or
 * its line failed): the mirror's, and recorded now, when it has the claimed
 * size and SHA-256 and the resource is listed as it was then.
 */
async function heldAsClaimed(
  entry: SitemapEntry,
  journal: MirrorJournal,
  root: string,
): Promise<boolean> {
  const claim = journal.claimOf(entry.loc);
  if (!claim || claim.version !== versionOf(entry)) return false;
  const target = `${root}/${claim.path}`;
  if (!(await realFoldersTo(root, claim.path))) return false;
  const info = await Deno.lstat(target).catch(() => undefined);
  if (!info?.isFile || info.size !== claim.bytes) return false;
  if (await fileSha256(target) !== claim.sha256) return false;
  await journal.written(claim);
  return true;
}

/** Removes the files of resources gone from the source, where they are as tidepool wrote them. */
async function removeGone(
  removed: readonly string[],
  journal: MirrorJournal,
  root: string,
  result: MirrorResult,
): Promise<void> {
  for (const loc of removed) {
    const record = journal.get(loc) ?? journal.claimOf(loc);
    if (!record) continue;
    const target = `${root}/${record.path}`;
    // Through a link on the way, the file is outside the folder: never removed, nor read.
    if (!(await realFoldersTo(root, record.path))) {
      result.kept.push(record.path);
      await journal.removed(loc);
      continue;
    }
    const info = await Deno.lstat(target).catch(() => undefined);
    if (info?.isFile && await fileSha256(target) === record.sha256) {
      await Deno.remove(target);
      result.deleted.push(record.path);
    } else if (info) {
      // Changed since tidepool wrote it: the user's now, kept and no longer the mirror's.
      result.kept.push(record.path);
    }
    await journal.removed(loc);
  }
}

/**
 * The mirror's folder, made if missing: on the first run that keeps files it
 * must be empty but for the mirror's own state files (a state kept inside the
 * folder), and later runs must name the folder the state names. A first run
 * whose state never moved on (stopped, or a command line's run whose table
 * was not delivered) left its journal: the files it lists are the mirror's,
 * so the folder is taken as it is and the journal decides, file by file.
 */
async function openFolder(
  dir: string,
  state: MirrorState | undefined,
  own: readonly string[],
  journal: string,
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const root = await Deno.realPath(dir);
  if (state?.dir !== undefined) {
    if (state.dir !== root) {
      throw new TidepoolError(`This mirror keeps its files in ${state.dir}, not in ${root}`, {
        hint: "Pass the folder the mirror started in, or a new state path for a new mirror",
      });
    }
    return root;
  }
  const journaled = await journalFolders(journal);
  const ownPaths = new Set(
    await Promise.all(own.map((path) => Deno.realPath(path).catch(() => path))),
  );
  for await (const entry of Deno.readDir(root)) {
    if (entry.isFile && ownPaths.has(`${root}/${entry.name}`)) continue;
    if (journaled.has(entry.name)) continue;
    throw new TidepoolError(
      `Cannot start a mirror's files in ${root}: the folder is not empty (${entry.name})`,
      { hint: "Give an empty or new folder: a mirror writes only into a folder that is its own" },
    );
  }
  return root;
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
  // A link at the state's name is refused, never followed.
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  let state: MirrorState | undefined;
  try {
    state = JSON.parse(text) as MirrorState;
  } catch {
    // The parser's message quotes the file: it is not repeated.
  }
  if (state?.version !== 1 || !state.since) {
    throw new TidepoolError(
      `Cannot read the mirror state file ${path}: it is not a tidepool mirror state`,
      { hint: "Give the mirror a folder of its own, or delete this file to start a new baseline" },
    );
  }
  return state;
}

/** A companion file with no mirror state beside it is not tidepool's: it is never replaced. */
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
  const text = await readOwnFile(path) ?? "";
  // A list an earlier version wrote may hold a location with its key: kept without it now.
  return new Set(text.split("\n").filter((l) => l !== "").map(keptLoc));
}
