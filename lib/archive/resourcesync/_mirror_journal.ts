/**
 * What a mirror wrote into its folder, kept beside its state file: one line
 * per file written or removed (`<state>.files.jsonl`), appended as each
 * download completes, so a run stopped at any point loses no finished file
 * and the next one knows which files are tidepool's; and the resources still
 * to fetch (`<state>.pending.json`), saved before the state moves on. A
 * file's claim (its location, path, size and SHA-256) is on disk before the
 * file gets its name: a run stopped between the two, or whose line after
 * failed, leaves a file the next run recognises as its own by that digest.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { openOwnFile, readOwnFile, removeOwnFile, writeOwnFile } from "../../fs/own_file.ts";
import type { SitemapEntry } from "./_sitemap.ts";
import { keptLoc } from "./_mirror_locs.ts";

/** A file the mirror wrote. */
export interface JournalRecord {
  /** The resource's location. */
  loc: string;
  /** Its path below the folder. */
  path: string;
  /** SHA-256 of the bytes written, lowercase hex. */
  sha256: string;
  /** Bytes written. */
  bytes: number;
  /** What the list said of the resource when it was written ({@linkcode versionOf}). */
  version: string;
}

/** What tells one listed version of a resource from another. */
export function versionOf(entry: SitemapEntry): string {
  return JSON.stringify([entry.lastmod, entry.hash, entry.length]);
}

/** The journal of one mirror: read whole at the start, appended as files are written. */
export class MirrorJournal {
  readonly #path: string;
  readonly #byLoc = new Map<string, JournalRecord>();
  readonly #byPath = new Map<string, JournalRecord>();
  /** Files claimed by an earlier run and never recorded as written, by location. */
  readonly #claims = new Map<string, JournalRecord>();
  #writes: Promise<void> = Promise.resolve();
  /** Lines waiting for the next write, and that write. */
  readonly #batch: string[] = [];
  #flush?: Promise<void>;
  #file?: Deno.FsFile;

  private constructor(path: string) {
    this.#path = path;
  }

  /** Reads the journal at `path` (none yet: empty). */
  static async open(path: string): Promise<MirrorJournal> {
    const journal = new MirrorJournal(path);
    // A link at the journal's name is refused, never read through.
    const text = await readOwnFile(path) ?? "";
    const lines = text.split("\n").filter((line) => line !== "");
    lines.forEach((line, i) => {
      let record:
        | (JournalRecord & { removed?: boolean; claimed?: boolean; withdrawn?: boolean })
        | undefined;
      try {
        record = JSON.parse(line);
      } catch {
        // A run stopped while appending leaves its last line cut: that file is fetched again.
        if (i === lines.length - 1 && !text.endsWith("\n")) return;
      }
      if (!record || typeof record.loc !== "string" || typeof record.path !== "string") {
        throw new TidepoolError(`Cannot read the mirror's list of files ${path}: line ${i + 1}`, {
          hint:
            "It was changed by hand; restore it, or start a new mirror with a new state path and an empty folder",
        });
      }
      // A line an earlier version wrote may hold a location with its key: kept without it now.
      record.loc = keptLoc(record.loc);
      if (record.claimed) journal.#claims.set(record.loc, kept(record));
      else if (record.withdrawn) journal.#withdrawn(record);
      else {
        journal.#claims.delete(record.loc);
        if (record.removed) journal.#forget(record.loc);
        else journal.#remember(record);
      }
    });
    return journal;
  }

  /** The file written for a location, if any. */
  get(loc: string): JournalRecord | undefined {
    return this.#byLoc.get(loc);
  }

  /** The file written at a path, if any. */
  at(path: string): JournalRecord | undefined {
    return this.#byPath.get(path);
  }

  /** The file an earlier run claimed for a location and never recorded as written, if any. */
  claimOf(loc: string): JournalRecord | undefined {
    return this.#claims.get(loc);
  }

  /** The location that holds or claimed a path, if any. */
  ownerOf(path: string): string | undefined {
    if (this.#byPath.has(path)) return this.#byPath.get(path)!.loc;
    for (const claim of this.#claims.values()) if (claim.path === path) return claim.loc;
    return undefined;
  }

  /** The SHA-256 digests a file at a path may have and be tidepool's: written, or claimed. */
  digestsAt(path: string): Set<string> {
    const digests = new Set<string>();
    const record = this.#byPath.get(path);
    if (record) digests.add(record.sha256);
    for (const claim of this.#claims.values()) if (claim.path === path) digests.add(claim.sha256);
    return digests;
  }

  /**
   * Claims a file before it gets its name: the line is on disk when the
   * promise resolves. Until {@linkcode written} follows, the next run takes
   * the file at that path as tidepool's only if it has this digest.
   */
  claim(record: JournalRecord): Promise<void> {
    return this.#append({ ...kept(record), claimed: true });
  }

  /**
   * Takes back a claim whose file never got its name (the name was refused,
   * or naming failed): the file at that path is not tidepool's by this
   * claim, whatever digest it has. The line is on disk when the promise
   * resolves.
   */
  withdraw(record: JournalRecord): Promise<void> {
    const { loc, path, sha256 } = record;
    this.#withdrawn({ loc, path, sha256 });
    return this.#append({ loc, path, sha256, withdrawn: true });
  }

  /** How many files the mirror holds. */
  get size(): number {
    return this.#byLoc.size;
  }

  /** Records a file written; the line is on disk when the promise resolves. */
  written(record: JournalRecord): Promise<void> {
    this.#claims.delete(record.loc);
    this.#remember(record);
    return this.#append(record);
  }

  /** Records a file removed. */
  removed(loc: string): Promise<void> {
    const record = this.#byLoc.get(loc) ?? this.#claims.get(loc);
    if (!record) return Promise.resolve();
    this.#claims.delete(loc);
    this.#forget(loc);
    return this.#append({ loc, path: record.path, removed: true });
  }

  /** Rewrites the journal with only the files held now, and closes it. */
  async compact(): Promise<void> {
    await this.close();
    // A claim never resolved stays: its file may be under its name.
    const lines = [
      ...[...this.#byLoc.values()].map((record) => JSON.stringify(record) + "\n"),
      ...[...this.#claims.values()].map((claim) =>
        JSON.stringify({ ...claim, claimed: true }) + "\n"
      ),
    ];
    await writeOwnFile(this.#path, lines.join(""));
  }

  /** Closes the file after the last append. */
  async close(): Promise<void> {
    await this.#writes;
    this.#file?.close();
    this.#file = undefined;
  }

  /** Drops the claim a withdrawal names, and only that one (same path and digest). */
  #withdrawn({ loc, path, sha256 }: Pick<JournalRecord, "loc" | "path" | "sha256">): void {
    const claim = this.#claims.get(loc);
    if (claim && claim.path === path && claim.sha256 === sha256) this.#claims.delete(loc);
  }

  #remember(record: JournalRecord): void {
    this.#forget(record.loc);
    const held = kept(record);
    this.#byLoc.set(held.loc, held);
    this.#byPath.set(held.path, held);
  }

  #forget(loc: string): void {
    const old = this.#byLoc.get(loc);
    if (!old) return;
    this.#byLoc.delete(loc);
    if (this.#byPath.get(old.path) === old) this.#byPath.delete(old.path);
  }

  /**
   * Appends a line; the lines of downloads that end while a write is under
   * way go together in the next one (one write for many files).
   */
  #append(line: unknown): Promise<void> {
    this.#batch.push(JSON.stringify(line) + "\n");
    this.#flush ??= this.#writes.then(async () => {
      this.#flush = undefined;
      const bytes = new TextEncoder().encode(this.#batch.splice(0).join(""));
      this.#file ??= await openOwnFile(this.#path, { append: true });
      for (let offset = 0; offset < bytes.byteLength;) {
        offset += await this.#file.write(bytes.subarray(offset));
      }
    });
    const write = this.#flush;
    this.#writes = write.catch(() => {});
    return write;
  }
}

/** A record's own fields, nothing else a line held. */
function kept({ loc, path, sha256, bytes, version }: JournalRecord): JournalRecord {
  return { loc, path, sha256, bytes, version };
}

/** The resources a run still has to fetch (an interrupted or failed run's). */
export async function readPending(path: string): Promise<SitemapEntry[]> {
  const text = await readOwnFile(path);
  if (text === undefined) return [];
  try {
    const pending = JSON.parse(text);
    if (!Array.isArray(pending)) throw new Error("not a list");
    return pending as SitemapEntry[];
  } catch (error) {
    throw new TidepoolError(`Cannot read the mirror's list of resources to fetch ${path}`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "Reading it said",
      hint: "Delete it: the next full re-list (relistAfterDays: 0) finds what is missing",
    });
  }
}

/** Saves the resources still to fetch; none: the file goes. */
export async function writePending(path: string, entries: readonly SitemapEntry[]): Promise<void> {
  if (entries.length > 0) await writeOwnFile(path, JSON.stringify(entries));
  else await removeOwnFile(path);
}

/** Whether a file is a mirror's journal as tidepool writes it (a last line may be cut). */
export async function isJournal(path: string): Promise<boolean> {
  const lines = ((await readOwnFile(path)) ?? "").split("\n").filter((line) => line !== "");
  return lines.every((line, i) => {
    try {
      const record = JSON.parse(line);
      return typeof record?.loc === "string" && typeof record?.path === "string";
    } catch {
      return i === lines.length - 1;
    }
  });
}

/** Whether a file is a mirror's list of resources to fetch. */
export async function isToFetch(path: string): Promise<boolean> {
  try {
    await readPending(path);
    return true;
  } catch {
    return false;
  }
}

/** The first segment of each path the journal lists: what a stopped first run wrote. */
export async function journalFolders(journal: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const line of ((await readOwnFile(journal)) ?? "").split("\n")) {
    try {
      const path = JSON.parse(line)?.path;
      if (typeof path === "string" && path !== "") names.add(path.split("/")[0]);
    } catch {
      // a cut last line: its file is fetched again
    }
  }
  return names;
}
