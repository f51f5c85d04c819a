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
 * with one key must see the same folder: a process that may not read one of
 * these variables (when the ones before it are unset) refuses to order
 * rather than lock another file.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { NotOwnFileError, openOwnFile } from "../../fs/own_file.ts";

/** The variables that decide the state folder, in the order they are read. */
const STATE_VARIABLES = ["TIDEPOOL_STATE_DIR", "XDG_STATE_HOME", "HOME"] as const;

/**
 * tidepool's state folder: where the wallet locks live. Decided the same
 * way in every process, whatever its permissions: a variable that decides
 * it and that the process may not read is never skipped (another process
 * that may read it would lock another file), and a process that cannot
 * decide the folder fails closed, naming what to give.
 *
 * @returns The folder's path (not created).
 */
export function stateDir(): string {
  const own = readVariable("TIDEPOOL_STATE_DIR");
  if (own) return absolute("TIDEPOOL_STATE_DIR", own);
  // The XDG specification: a relative path in XDG_STATE_HOME is invalid and ignored.
  const xdg = readVariable("XDG_STATE_HOME");
  if (xdg && isAbsolute(xdg)) return `${xdg}/tidepool`;
  const home = readVariable("HOME") ??
    (Deno.build.os === "windows" ? readVariable("USERPROFILE") : undefined);
  if (home) return `${absolute("HOME", home)}/.local/state/tidepool`;
  throw new TidepoolError("Cannot order: tidepool's state folder is unknown", {
    details: `${STATE_VARIABLES.join(", ")} are not set`,
    detailsLabel: "Environment",
    hint:
      "Nothing was sent. Set TIDEPOOL_STATE_DIR to a folder every process ordering with this wallet can write (it holds the wallet's lock), and allow reading it (--allow-env=TIDEPOOL_STATE_DIR)",
  });
}

/** Whether a path names the same place from any working folder. */
function isAbsolute(path: string): boolean {
  return path.startsWith("/") ||
    (Deno.build.os === "windows" && /^([a-zA-Z]:[\\/]|\\\\)/.test(path));
}

/**
 * A state variable's folder, refused when relative: it would name another
 * folder in each process started elsewhere, and two processes with one key
 * would lock two files and could both pay.
 */
function absolute(name: string, path: string): string {
  if (isAbsolute(path)) return path;
  throw new TidepoolError(
    `Cannot order: ${name} (${JSON.stringify(path.slice(0, 80))}) is not an absolute path`,
    {
      details: "a relative folder moves with the working folder: each process would lock its own",
      detailsLabel: "Lock",
      hint:
        `Nothing was sent. Set ${name} to an absolute path (or TIDEPOOL_STATE_DIR to one), the same in every process ordering with this wallet`,
    },
  );
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
  const folder = path.slice(0, path.lastIndexOf("/"));
  let file: Deno.FsFile;
  try {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await refuseSharedLock(folder, path);
    // Never `create: true`, which follows a link planted after the check above: the file is
    // made create-new, or opened and checked to be the regular file the name held.
    file = await openOwnFile(path).catch((error) => {
      if (!(error instanceof NotOwnFileError)) throw error;
      throw lockRefusal(path, "path is not a plain file (a link?)");
    });
    await refuseForeignLockFile(file, path).catch((error) => {
      file.close();
      throw error;
    });
  } catch (error) {
    if (error instanceof TidepoolError) throw error;
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

/**
 * Refuses a lock another user could undo: a lock folder anyone may write
 * or another user owns (a link planted at the lock's path would be
 * followed, a lock file removed while held lets a second holder in), a
 * state folder anyone may write that is not sticky, or that another user
 * than root owns (the lock folder could be swapped), or a lock path that is
 * not a plain file.
 */
async function refuseSharedLock(folder: string, path: string): Promise<void> {
  const refuse = (what: string) => lockRefusal(path, what);
  const parent = await Deno.lstat(folder.slice(0, folder.lastIndexOf("/")) || "/");
  if (parent.mode !== null && (parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0) {
    throw refuse("is in a state folder anyone may write");
  }
  const locks = await Deno.lstat(folder);
  if (!locks.isDirectory) throw refuse("folder is not a folder (a link?)");
  if (locks.mode !== null && (locks.mode & 0o002) !== 0) {
    throw refuse("folder may be written by anyone");
  }
  // The owner of a folder may remove or swap what is in it, whatever its mode:
  // another user's lock folder (755 or not) or state folder undoes the lock.
  const own = await ownUid(folder);
  if (own !== null && locks.uid !== own) throw refuse("folder belongs to another user");
  if (own !== null && parent.uid !== own && parent.uid !== 0) {
    throw refuse("is in a state folder another user owns");
  }
  const lock = await Deno.lstat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (lock && !lock.isFile) throw refuse("path is not a plain file (a link?)");
}

/** The refusal of a lock another user could undo, naming what is wrong with it. */
function lockRefusal(path: string, what: string): TidepoolError {
  return new TidepoolError(`Cannot order: the wallet's lock ${what}`, {
    details: path,
    detailsLabel: "Lock",
    hint:
      "Nothing was sent. Set TIDEPOOL_STATE_DIR to a folder only you can write (it holds the wallet's lock; tidepool makes it with mode 700)",
  });
}

/** Refuses a lock file another user made: they could remove it while it is held. */
async function refuseForeignLockFile(file: Deno.FsFile, path: string): Promise<void> {
  const folder = path.slice(0, path.lastIndexOf("/"));
  const [own, lock] = [await ownUid(folder), await file.stat()];
  if (own === null || lock.uid === null || lock.uid === own) return;
  throw new TidepoolError("Cannot order: the wallet's lock file belongs to another user", {
    details: path,
    detailsLabel: "Lock",
    hint:
      "Nothing was sent. Set TIDEPOOL_STATE_DIR to a folder only you can write (it holds the wallet's lock; tidepool makes it with mode 700)",
  });
}

/**
 * The user id this process writes files as: `Deno.uid()` when the script
 * may read it (`--allow-sys=uid`), else the owner of a file it makes in
 * `folder` and removes at once, so no permission beyond writing the state
 * folder is needed. Null where files have no owner id (Windows).
 */
async function ownUid(folder: string): Promise<number | null> {
  if (Deno.build.os === "windows") return null;
  const sys = Deno.permissions.querySync?.({ name: "sys", kind: "uid" });
  if (!sys || sys.state === "granted") return Deno.uid();
  const probe = await Deno.makeTempFile({ dir: folder, prefix: ".owner-" });
  try {
    return (await Deno.lstat(probe)).uid;
  } finally {
    await Deno.remove(probe);
  }
}

/**
 * A variable that decides where the wallet's lock is: its value, or
 * undefined when unset. A process that may not read it fails closed (never
 * a permission prompt): skipping it would lock another file than a
 * process that may, and both would pay.
 */
function readVariable(name: string): string | undefined {
  const permission = Deno.permissions.querySync?.({ name: "env", variable: name });
  if (permission && permission.state !== "granted") {
    const needed = STATE_VARIABLES.slice(0, STATE_VARIABLES.indexOf(name as never) + 1);
    throw new TidepoolError(
      `Cannot order: tidepool may not read ${name}, which decides where the wallet's lock is`,
      {
        details: `permission to read ${name}: ${permission.state}`,
        detailsLabel: "Deno said",
        hint: `Nothing was sent. Allow reading it: --allow-env=${
          (needed.length > 0 ? needed : [name]).join(",")
        } (or --allow-env); every process ordering with one wallet must find the same lock`,
      },
    );
  }
  return Deno.env.get(name) || undefined;
}
