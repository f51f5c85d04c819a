/**
 * The lane of a wallet across processes: an operating system file lock
 * (`Deno.FsFile#lock`) per wallet and chain in tidepool's state folder. Two
 * notebooks, or a notebook and a script, ordering with one key queue on it
 * instead of taking the same nonce or spending each other's allowance. The
 * operating system drops the lock when the process ends, however it ends,
 * so a killed notebook never leaves a wallet locked.
 *
 * The folder is `TIDEPOOL_STATE_DIR` when set, else `$XDG_STATE_HOME/tidepool`,
 * else `~/.local/state/tidepool` (docs/SAFETY.md). Every process that orders
 * with one key must see the same folder.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";

/**
 * tidepool's state folder: where the wallet locks live.
 *
 * @returns The folder's path (not created).
 */
export function stateDir(): string {
  const own = readVariable("TIDEPOOL_STATE_DIR");
  if (own) return own;
  const xdg = readVariable("XDG_STATE_HOME");
  if (xdg) return `${xdg}/tidepool`;
  const home = readVariable("HOME") ?? readVariable("USERPROFILE");
  if (home) return `${home}/.local/state/tidepool`;
  throw new TidepoolError("Cannot order: tidepool's state folder is unknown", {
    hint:
      "Set TIDEPOOL_STATE_DIR to a folder every process ordering with this wallet can write (it holds the wallet's lock), and allow reading it (--allow-env)",
  });
}

/**
 * The path of the lock file of a wallet on a chain.
 *
 * @param chainId The chain.
 * @param address The wallet (any case).
 * @returns The lock file's path.
 */
export function walletLockPath(chainId: number, address: string): string {
  return `${stateDir()}/locks/wallet-${chainId}-${address.toLowerCase()}.lock`;
}

/**
 * Runs `body` holding the wallet's lock, after any other process's holder
 * has let go. Waiting ends when `signal` aborts; a lock granted after that
 * is let go at once.
 *
 * @param chainId The chain.
 * @param address The wallet.
 * @param body The transactions, each awaited to its receipt.
 * @param signal Ends the wait for the lock.
 * @returns What `body` returned.
 */
export async function withWalletLock<T>(
  chainId: number,
  address: string,
  body: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const path = walletLockPath(chainId, address);
  let file: Deno.FsFile;
  try {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    file = await Deno.open(path, { read: true, write: true, create: true });
  } catch (error) {
    throw new TidepoolError(`Cannot order: the wallet's lock file ${path} cannot be opened`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "System said",
      hint:
        "Allow writing tidepool's state folder (--allow-write), or set TIDEPOOL_STATE_DIR to a folder you can write; nothing was sent",
      cause: error,
    });
  }
  try {
    signal?.throwIfAborted();
    const locked = file.lock(true);
    if (signal) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        locked.then(() => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        }, reject);
      });
    } else {
      await locked;
    }
    return await body();
  } finally {
    // Closing the file lets go of the lock, also one granted after an abort.
    file.close();
  }
}

/** A variable's value when the script may read it; never a permission prompt. */
function readVariable(name: string): string | undefined {
  const permission = Deno.permissions.querySync?.({ name: "env", variable: name });
  if (permission && permission.state !== "granted") return undefined;
  return Deno.env.get(name) || undefined;
}
