/**
 * The two ends of a temporary file that downloads stream to disk: naming
 * it, complete, where no file is, which turns it into a result; or
 * discarding it when the download failed.
 *
 * @module
 */

/**
 * Gives a complete temporary file its name only where nothing is there yet.
 * A hard link fails atomically when the name is taken (a file, a folder, a
 * symbolic link, even one made a moment ago), so nothing is ever replaced;
 * on a file system without hard links the name is looked at, then renamed to.
 *
 * @param temporary The complete file, in the target's folder.
 * @param target The name it should have.
 * @returns True when the file has its name (the temporary name is gone);
 *   false when the name is taken (the temporary file is left as it was).
 *
 * @example Name a file only where none is
 * ```ts
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/.part`, "data");
 * console.log(await nameNewFile(`${dir}/.part`, `${dir}/data.txt`)); // true
 * await Deno.writeTextFile(`${dir}/.part`, "other");
 * console.log(await nameNewFile(`${dir}/.part`, `${dir}/data.txt`)); // false
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function nameNewFile(temporary: string, target: string): Promise<boolean> {
  try {
    await Deno.link(temporary, target);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    // A file system without hard links: look, then rename.
    try {
      await Deno.lstat(target);
      return false;
    } catch (missing) {
      if (!(missing instanceof Deno.errors.NotFound)) throw missing;
    }
    await Deno.rename(temporary, target);
    return true;
  }
  await Deno.remove(temporary);
  return true;
}

/**
 * Throws away a temporary file a failed download was writing: closes it
 * (it may be closed already) and removes it, so a fault leaves no half file.
 *
 * @param file The open file, if it is still open.
 * @param temporary Its path.
 *
 * @example Discard a half-written file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * const file = await Deno.open(`${dir}/.part`, { write: true, createNew: true });
 * await discardTemporary(file, `${dir}/.part`);
 * await Deno.remove(dir);
 * ```
 */
export async function discardTemporary(
  file: Deno.FsFile | undefined,
  temporary: string,
): Promise<void> {
  try {
    file?.close();
  } catch {
    // already closed
  }
  await Deno.remove(temporary).catch(() => {});
}
