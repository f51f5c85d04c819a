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

/**
 * The owner of a folder may remove or replace what is in it whatever its
 * mode, so another user's folder undoes the lock as surely as one anyone
 * may write. Members: a `locks` folder another user made in advance (mode
 * 755), a lock file another user made there (mode 666) in one's own
 * folder, a state folder another user owns; each in this process (which
 * may read its user id) and in a child that may not (`--allow-sys` not
 * given: the owner is learnt from a file it makes). Making a folder another
 * user owns needs root, so these run as root only. Checked on the file
 * system: the lock file left as found, no step run.
 */
const OTHER_USER = 65534; // nobody
const asRoot = Deno.build.os !== "windows" && Deno.uid() === 0;

/** A private state folder, then `prepare` makes part of it another user's. */
async function foreignStateDir(
  prepare: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-foreign-state-" });
  await Deno.chmod(dir, 0o700);
  await prepare(dir);
  return dir;
}

const FOREIGN: [string, (dir: string) => Promise<void>][] = [
  ["a locks folder another user made with mode 755", async (dir) => {
    await Deno.mkdir(`${dir}/locks`, { mode: 0o755 });
    await Deno.chmod(`${dir}/locks`, 0o755);
    await Deno.chown(`${dir}/locks`, OTHER_USER, OTHER_USER);
  }],
  ["a lock file another user made in one's own folder", async (dir) => {
    await Deno.mkdir(`${dir}/locks`, { mode: 0o700 });
    const lock = `${dir}/locks/wallet-31337-${WALLET}.lock`;
    await Deno.writeFile(lock, new Uint8Array(), { mode: 0o666 });
    await Deno.chmod(lock, 0o666);
    await Deno.chown(lock, OTHER_USER, OTHER_USER);
  }],
  ["a state folder another user owns", async (dir) => {
    await Deno.chmod(dir, 0o755);
    await Deno.chown(dir, OTHER_USER, OTHER_USER);
  }],
];

for (const [name, prepare] of FOREIGN) {
  Deno.test({
    name: `the wallet's lock refuses ${name}`,
    ignore: !asRoot,
    async fn() {
      const dir = await foreignStateDir(prepare);
      try {
        Deno.env.set("TIDEPOOL_STATE_DIR", dir);
        let ran = false;
        const error = await withWalletLock(31337, WALLET, () => {
          ran = true;
          return Promise.resolve();
        }).then(() => undefined, (e) => e);
        assert.equal(ran, false, "the lane step ran");
        assert.match(String(error?.message), /another user/);
        const left = await Array.fromAsync(Deno.readDir(`${dir}/locks`)).catch(() => []);
        assert.deepEqual(left.filter((e) => e.name.startsWith(".owner-")), [], "no probe left");

        // A script without --allow-sys learns its user from a file it makes.
        const script = await Deno.makeTempFile({ prefix: "tidepool-lock-child-", suffix: ".ts" });
        await Deno.writeTextFile(
          script,
          `import { withWalletLock } from "${
            new URL("../../lib/ocean/order/_wallet_lock.ts", import.meta.url).href
          }";
          await withWalletLock(31337, "${WALLET}", () => { console.log("ran"); return Promise.resolve(); })
            .catch((e) => console.log(e.message));`,
        );
        const child = await new Deno.Command(Deno.execPath(), {
          args: ["run", "--no-check", "--allow-read", "--allow-write", "--allow-env", script],
          env: { TIDEPOOL_STATE_DIR: dir },
          stdout: "piped",
          stderr: "piped",
        }).output().finally(() => Deno.remove(script));
        const said = new TextDecoder().decode(child.stdout);
        assert.doesNotMatch(said, /^ran$/m, "the child's lane step ran");
        assert.match(said, /another user/, new TextDecoder().decode(child.stderr));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
