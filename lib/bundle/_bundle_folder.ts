/**
 * What a bundle folder holds, told without opening anything (each entry's
 * name, and what it is when not a regular file), and how long a listing of
 * it `verify` reads.
 *
 * @module
 */

/**
 * The entries directly in the folder (a bundle has no subfolders), each with
 * what it is when not a regular file, as ` (a symbolic link)`.
 *
 * @param dir The bundle folder.
 * @returns Each name and what it is (empty for a regular file), sorted by name.
 *
 * @example
 * ```ts ignore (internal; needs a bundle folder, as tests/bundle writes)
 * await folderEntries("paper/bundle"); // Map { "counts.csv" => "", "link.csv" => " (a symbolic link)" }
 * ```
 */
export async function folderEntries(dir: string): Promise<Map<string, string>> {
  const entries: [string, string][] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const kind = entry.isFile
        ? ""
        : entry.isSymlink
        ? " (a symbolic link)"
        : entry.isDirectory
        ? " (a folder)"
        : " (not a regular file)";
      entries.push([entry.name, kind]);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return new Map(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The most entries a listing may hold (the crate's `hasPart`, the data
 * package's `resources`, the lines of `SHA256SUMS`): far above any bundle's,
 * far below what makes a check slow. Entries past it are one problem row,
 * not checked.
 */
export const LISTING_LIMIT = 10_000;

/**
 * The first {@linkcode LISTING_LIMIT} entries of a listing.
 *
 * @param entries The listing.
 * @param over Called with the listing's length when it holds more.
 * @returns The entries checked.
 *
 * @example
 * ```ts
 * console.log(withinLimit([1, 2, 3], () => {}).length); // 3
 * ```
 */
export function withinLimit<T>(entries: T[], over: (count: number) => void): T[] {
  if (entries.length <= LISTING_LIMIT) return entries;
  over(entries.length);
  return entries.slice(0, LISTING_LIMIT);
}
