/**
 * The wallet's lock is only as good as its folder. `TIDEPOOL_STATE_DIR` may
 * name a folder another user can write (the docs ask every process ordering
 * with one key to see the same folder, and a shared one is the easy way),
 * and the lock file is opened by name, following links, with `create`:
 *
 * - a symbolic link planted at the lock's path makes tidepool create (and
 *   lock) a file wherever the link points, outside the state folder;
 * - a lock file removed (or replaced) while its holder is inside lets the
 *   next caller create a new file and lock that one: two lane steps of one
 *   wallet run at once, which is how one service gets paid twice.
 *
 * Either folder should be refused, or the lock should still exclude. Checked
 * on the file system and by counting the steps inside the lane at once.
 */

import assert from "node:assert/strict";
import { walletLockPath, withWalletLock } from "../../lib/ocean/order/_wallet_lock.ts";

const WALLET = "0x00000000000000000000000000000000000a4444";

async function sharedStateDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-shared-state-" });
  await Deno.mkdir(`${dir}/locks`);
  // A folder another user can write, as /tmp or a group's shared folder is.
  await Deno.chmod(dir, 0o777);
  await Deno.chmod(`${dir}/locks`, 0o777);
  Deno.env.set("TIDEPOOL_STATE_DIR", dir);
  return dir;
}

Deno.test("a link at the lock's path does not make tidepool create a file elsewhere", async () => {
  const dir = await sharedStateDir();
  const elsewhere = await Deno.makeTempDir({ prefix: "tidepool-victim-" });
  try {
    const target = `${elsewhere}/created-by-tidepool`;
    await Deno.symlink(target, walletLockPath(31337, WALLET));
    await withWalletLock(31337, WALLET, () => Promise.resolve()).catch(() => undefined);
    const created = await Deno.lstat(target).then(() => true, () => false);
    assert.equal(created, false, `tidepool created ${target} through the link`);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("a lock file removed while held does not let a second step in", async () => {
  const dir = await sharedStateDir();
  try {
    let inside = 0;
    let most = 0;
    let entered!: () => void;
    const firstIn = new Promise<void>((resolve) => entered = resolve);
    const step = async () => {
      most = Math.max(most, ++inside);
      entered();
      await new Promise((resolve) => setTimeout(resolve, 300));
      inside--;
    };
    const first = withWalletLock(31337, WALLET, step);
    // A folder refused outright is as good as a lock that holds.
    await Promise.race([firstIn, first.catch(() => undefined)]);
    // Another user of the folder (or a cleaner of old files) removes the lock file.
    await Deno.remove(walletLockPath(31337, WALLET)).catch(() => undefined);
    const second = withWalletLock(31337, WALLET, step);
    await Promise.allSettled([first, second]);
    assert.ok(most <= 1, "two steps of one wallet's lane ran at once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
