/**
 * The wallet lock's place is decided the same way in every process. When
 * `--allow-env` did not name `TIDEPOOL_STATE_DIR`, the lock silently fell
 * back to `$HOME/.local/state`: two processes with one key and the same
 * variable locked two different files, and a service was paid twice. The
 * class: a guard of money that moves with a permission or a variable.
 * Members: `TIDEPOOL_STATE_DIR` set and not readable, `XDG_STATE_HOME` set
 * and not readable, `HOME` unset. Each process that cannot decide the place
 * fails closed, naming what to give; checked on disk: no lock file appears
 * anywhere else, and a process that may read the variable locks the file
 * it names.
 */

import assert from "node:assert/strict";
import { denoDir as parentDenoDir, takeLock } from "./_lock_place_run.ts";

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of Deno.readDirSync(at)) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else found.push(path);
    }
  };
  walk(dir);
  return found;
}

Deno.test("a process that may not read where the wallet lock is fails closed", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "lock-place-" });
  const home = `${root}/home`;
  const state = `${root}/state`;
  const xdg = `${root}/xdg`;
  for (const dir of [home, state, xdg]) await Deno.mkdir(dir, { mode: 0o700 });
  const denoDir = await parentDenoDir();
  try {
    await t.step("TIDEPOOL_STATE_DIR set, and not readable", async () => {
      const env = { HOME: home, TIDEPOOL_STATE_DIR: state, DENO_DIR: denoDir };
      const allowed = await takeLock("--allow-env", env);
      assert.equal(allowed.path?.startsWith(`${state}/locks/`), true, JSON.stringify(allowed));
      const refused = await takeLock("--allow-env=HOME", env);
      assert.match(String(refused.error), /may not read TIDEPOOL_STATE_DIR/);
      assert.match(String(refused.error), /--allow-env=TIDEPOOL_STATE_DIR/);
      assert.deepEqual(filesUnder(home), [], "no lock under HOME");
    });

    await t.step("XDG_STATE_HOME set, and not readable", async () => {
      const env = { HOME: home, XDG_STATE_HOME: xdg, DENO_DIR: denoDir };
      const allowed = await takeLock("--allow-env", env);
      assert.equal(allowed.path?.startsWith(`${xdg}/tidepool/locks/`), true);
      const refused = await takeLock("--allow-env=TIDEPOOL_STATE_DIR,HOME", env);
      assert.match(String(refused.error), /may not read XDG_STATE_HOME/);
      assert.match(String(refused.error), /--allow-env=TIDEPOOL_STATE_DIR,XDG_STATE_HOME/);
      assert.deepEqual(filesUnder(home), [], "no lock under HOME");
    });

    await t.step("HOME unset, and nothing else set", async () => {
      const refused = await takeLock("--allow-env", { DENO_DIR: denoDir });
      assert.match(String(refused.error), /state folder is unknown/);
      assert.match(String(refused.error), /TIDEPOOL_STATE_DIR/);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
