/**
 * The wallet's lock file, in a state folder only its user may write, is
 * opened only as the regular file at its name: a symbolic link planted
 * there (to a file outside, or to nothing yet) or a folder is refused before
 * anything runs in the lane, the link kept and its target untouched; and a
 * link planted after tidepool looked at the name, before it opened it (a
 * second process racing it, played here by planting the link the moment
 * tidepool's look returns), is refused too, not followed by a
 * `create: true` open. Checked on the file system.
 */

import assert from "node:assert/strict";
import { walletLockPath, withWalletLock } from "../../lib/ocean/order/_wallet_lock.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

const WALLET = "0x00000000000000000000000000000000000b5555";
const KEPT = "a file the link points at, kept byte for byte\n";

/** A private state folder (mode 700, as tidepool makes it) and a folder outside it. */
async function scene() {
  const state = await Deno.makeTempDir({ prefix: "tidepool-private-state-" });
  await Deno.mkdir(`${state}/locks`, { mode: 0o700 });
  await Deno.chmod(state, 0o700);
  const elsewhere = await Deno.makeTempDir({ prefix: "tidepool-outside-" });
  Deno.env.set("TIDEPOOL_STATE_DIR", state);
  const cleanup = async () => {
    Deno.env.delete("TIDEPOOL_STATE_DIR");
    await Deno.remove(state, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  };
  return { lock: walletLockPath(31337, WALLET), elsewhere, cleanup };
}

/** Runs an empty lane step; whether the step ran, and the error if refused. */
async function step(): Promise<{ ran: boolean; error?: unknown }> {
  let ran = false;
  try {
    await withWalletLock(31337, WALLET, () => {
      ran = true;
      return Promise.resolve();
    });
    return { ran };
  } catch (error) {
    return { ran, error };
  }
}

function isLinkRefusal(error: unknown): boolean {
  return error instanceof TidepoolError && /lock path is not a plain file/.test(error.message) &&
    /Nothing was sent/.test(error.message);
}

Deno.test("a link at the lock's path in a private state folder is refused: kept, its target untouched", async () => {
  const { lock, elsewhere, cleanup } = await scene();
  try {
    const target = `${elsewhere}/theirs.txt`;
    await Deno.writeTextFile(target, KEPT);
    await Deno.symlink(target, lock);
    const { ran, error } = await step();
    assert.equal(ran, false, "nothing ran in the lane");
    assert.ok(isLinkRefusal(error), String(error));
    assert.equal((await Deno.lstat(lock)).isSymlink, true, "the link is kept");
    assert.equal(await Deno.readTextFile(target), KEPT);
    // A dangling link: nothing is made where it points.
    await Deno.remove(lock);
    await Deno.symlink(`${elsewhere}/made-by-tidepool`, lock);
    assert.ok(isLinkRefusal((await step()).error));
    assert.equal(await Deno.lstat(`${elsewhere}/made-by-tidepool`).then(() => 1, () => 0), 0);
    // A folder at the lock's name.
    await Deno.remove(lock);
    await Deno.mkdir(lock);
    assert.ok(isLinkRefusal((await step()).error));
    // The lock's own file still works once the name is free.
    await Deno.remove(lock);
    assert.equal((await step()).ran, true);
    assert.equal((await Deno.lstat(lock)).isFile, true);
  } finally {
    await cleanup();
  }
});

Deno.test("a link planted after tidepool looked at the lock's name, before it opened it, is not followed", async () => {
  const { lock, elsewhere, cleanup } = await scene();
  const target = `${elsewhere}/made-through-the-link`;
  const lstat = Deno.lstat;
  let planted = false;
  // The racing process: the moment tidepool's look finds the name free, a link takes it.
  Deno.lstat = async (path: string | URL) => {
    const info = await lstat(path).catch(async (error) => {
      if (String(path) === lock && !planted && error instanceof Deno.errors.NotFound) {
        planted = true;
        await Deno.symlink(target, lock);
      }
      throw error;
    });
    return info;
  };
  try {
    const { ran, error } = await step();
    assert.equal(planted, true, "the link was planted during the step");
    assert.equal(ran, false, "nothing ran in the lane");
    assert.ok(isLinkRefusal(error), String(error));
    assert.equal(
      await lstat(target).then(() => true, () => false),
      false,
      "no file was created through the link",
    );
    assert.equal((await lstat(lock)).isSymlink, true, "the link is kept");
  } finally {
    Deno.lstat = lstat;
    await cleanup();
  }
});
