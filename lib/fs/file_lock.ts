/**
 * An exclusive operating-system lock held on an open file: the one way a run
 * keeps a state to itself. It goes with the process however it ends (a
 * `kill -9` included), and a second holder, in another process or the same
 * one, is refused at once rather than made to wait.
 *
 * @module
 */

/** A held lock; `release()` (or leaving a `using` block) ends it. */
export type HeldLock = { release(): void } & Disposable;

/**
 * Takes the exclusive lock of an open file (`Deno.FsFile#tryLock`), without
 * waiting. Held: the file stays open until released. Not held: the file is
 * closed.
 *
 * @param file The open file (a lock file, or a folder opened for reading).
 * @returns The lock, or undefined when another holds it.
 *
 * @example Two holders of one lock file
 * ```ts
 * const dir = await Deno.makeTempDir();
 * const first = await tryHoldLock(await Deno.open(`${dir}/s.lock`, { create: true, write: true }));
 * const second = await tryHoldLock(await Deno.open(`${dir}/s.lock`, { write: true }));
 * console.log(first !== undefined, second === undefined); // true true
 * first?.release();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function tryHoldLock(file: Deno.FsFile): Promise<HeldLock | undefined> {
  let held = false;
  try {
    held = await file.tryLock(true);
  } finally {
    if (!held) file.close();
  }
  if (!held) return undefined;
  const release = () => {
    try {
      file.close(); // closing the file releases its lock
    } catch {
      // already closed
    }
  };
  return { release, [Symbol.dispose]: release };
}
