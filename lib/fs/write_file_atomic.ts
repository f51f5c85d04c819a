/**
 * The one way tidepool writes a file a reader may open at any moment: the
 * bytes go to a temporary name beside the target, then a rename gives them
 * the final name. A reader sees the old file or the whole new one, never a
 * half-written one, and a failed write leaves no temporary file behind.
 *
 * @module
 */

/**
 * A fresh temporary name beside `path` (same folder, so a rename is atomic):
 * `.<name>.<random>.part`. The leading dot hides it from folder readers
 * (DuckDB, Spark and Hive skip dot files) and from `*.csv`-style globs.
 *
 * @param path The final path.
 * @returns The temporary path.
 *
 * @example A temporary name for a cache file
 * ```ts
 * console.log(temporaryPath("cache/a.json")); // cache/.a.json.1f2e3d4c.part
 * ```
 */
export function temporaryPath(path: string): string {
  const slash = path.lastIndexOf("/");
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  return `${folder}.${name}.${crypto.randomUUID().slice(0, 8)}.part`;
}

/**
 * Writes `data` to `path` atomically: to {@linkcode temporaryPath} first,
 * then renamed over `path`. On failure the temporary file is removed and the
 * error passes on.
 *
 * @param path The final path (its folder must exist).
 * @param data The bytes, or text written as UTF-8.
 *
 * @example Saving a state file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/state.json`, JSON.stringify({ page: 3 }));
 * console.log(await Deno.readTextFile(`${dir}/state.json`));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = temporaryPath(path);
  try {
    // Create-new: a link planted at the temporary name is never written through.
    if (typeof data === "string") await Deno.writeTextFile(temporary, data, { createNew: true });
    else await Deno.writeFile(temporary, data, { createNew: true });
    await Deno.rename(temporary, path);
  } catch (error) {
    // What holds the name when create-new failed is not ours to remove.
    if (!(error instanceof Deno.errors.AlreadyExists)) await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * {@linkcode writeFileAtomic}, with the temporary file held under an
 * exclusive lock from its creation to its rename: a run stopped in between
 * leaves a temporary file whose lock went with the process, so a later run
 * can tell it from a write in progress (it takes the lock) and remove it.
 *
 * @param path The final path (its folder must exist).
 * @param data The bytes, or text written as UTF-8.
 *
 * @example A recording file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomicLocked(`${dir}/a.json`, "{}");
 * console.log(await Deno.readTextFile(`${dir}/a.json`)); // {}
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomicLocked(
  path: string,
  data: Uint8Array | string,
): Promise<void> {
  const temporary = temporaryPath(path);
  // Create-new: a link planted at the temporary name is never written through.
  const file = await Deno.open(temporary, { createNew: true, write: true });
  let locked = false;
  try {
    locked = await file.tryLock(true);
    if (!locked) throw new Error(`Could not lock the new file ${temporary}`);
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    for (let written = 0; written < bytes.length;) {
      written += await file.write(bytes.subarray(written));
    }
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  } finally {
    file.close(); // closing releases the lock
  }
}
