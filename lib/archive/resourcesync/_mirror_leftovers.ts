/**
 * What a stopped run (killed, or the machine gone) left half written: the
 * temporary file of each download it had under way, beside where that file
 * goes, and the temporary copy of a state file it was saving. The next run,
 * holding the mirror's lock, removes them: only names of the temporary
 * pattern (`.<name>.<8 hex digits>.part`) of a file the mirror was writing,
 * only regular files, only in folders reached without a link.
 *
 * @module
 */

import { basename, dirname } from "node:path";
import type { SitemapEntry } from "./_sitemap.ts";
import type { MirrorJournal } from "./_mirror_journal.ts";
import { mirrorPath, realFoldersTo } from "./_mirror_layout.ts";

/** The temporary names of a file (as `lib/fs/write_file_atomic.ts` makes them). */
function isTemporaryOf(entry: string, names: ReadonlySet<string>): boolean {
  const match = /^\.(.+)\.[0-9a-f]{8}\.part$/.exec(entry);
  return match !== null && names.has(match[1]);
}

/** Removes the entries of one folder that are temporary names of `names`, regular files only. */
async function removeIn(folder: string, names: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile && isTemporaryOf(entry.name, names)) found.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return removed;
    throw error;
  }
  for (const name of found) {
    const path = `${folder}/${name}`;
    // Looked at again at the moment of removal: a link put there meanwhile is left alone.
    const info = await Deno.lstat(path).catch(() => undefined);
    if (!info?.isFile) continue;
    await Deno.remove(path).catch(() => {});
    removed.push(path);
  }
  return removed;
}

/**
 * Removes the temporary files of the downloads a stopped run had under way
 * (the resources it left to fetch) and of the mirror's own state files.
 *
 * @param root The mirror's folder (absolute), or undefined for a mirror that lists only.
 * @param pending The resources the stopped run was fetching.
 * @param journal The files the mirror wrote (a resource keeps its path).
 * @param host The source's host, which names the paths.
 * @param ownFiles The mirror's state file and its companions.
 * @returns The paths removed.
 */
export async function removeLeftovers(
  root: string | undefined,
  pending: readonly SitemapEntry[],
  journal: MirrorJournal | undefined,
  host: string,
  ownFiles: readonly string[],
): Promise<string[]> {
  const byFolder = new Map<string, Set<string>>();
  const add = (folder: string, name: string) =>
    byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(name));
  for (const file of ownFiles) add(dirname(file), basename(file));
  if (root !== undefined) {
    for (const entry of pending) {
      let path: string;
      try {
        path = journal?.get(entry.loc)?.path ?? mirrorPath(entry.loc, host);
      } catch {
        continue; // refused when fetched: never written
      }
      // Through a link on the way the folder is not the mirror's: nothing there is removed.
      if (!(await realFoldersTo(root, path))) continue;
      const slash = path.lastIndexOf("/");
      add(slash < 0 ? root : `${root}/${path.slice(0, slash)}`, path.slice(slash + 1));
    }
  }
  const removed: string[] = [];
  for (const [folder, names] of byFolder) removed.push(...await removeIn(folder, names));
  return removed;
}
