/**
 * The wallet lock's place must not move with the working folder. A relative
 * `TIDEPOOL_STATE_DIR` (or `XDG_STATE_HOME`, or `HOME`) named a different
 * folder in every process started elsewhere: two processes with one key and
 * the very same variables locked two different files, and nothing kept them
 * from paying one service twice. The class: a guard of money whose place
 * moves with something besides the variables (here the working folder).
 * Members: `TIDEPOOL_STATE_DIR` relative (refused), `HOME` relative
 * (refused), `XDG_STATE_HOME` relative (ignored, as the XDG specification
 * says, so the lock falls back to `$HOME`). Checked on disk: the lock files
 * the processes left.
 */

import assert from "node:assert/strict";
import { denoDir as parentDenoDir, takeLock } from "./_lock_place_run.ts";

/** Every lock file under `dir`, recursively, as real paths. */
function locksUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of Deno.readDirSync(at)) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".lock")) found.push(Deno.realPathSync(path));
    }
  };
  walk(dir);
  return found;
}

Deno.test("two processes in different folders with one relative state variable lock one file or none", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lock-relative-" }));
  const denoDir = await parentDenoDir();
  const members: [string, Record<string, string>, RegExp | "home"][] = [
    ["TIDEPOOL_STATE_DIR relative", { TIDEPOOL_STATE_DIR: "state" }, /TIDEPOOL_STATE_DIR/],
    ["HOME relative", { HOME: "home" }, /HOME/],
    ["XDG_STATE_HOME relative", { XDG_STATE_HOME: "xdg" }, "home"],
  ];
  try {
    for (const [name, vars, expected] of members) {
      await t.step(name, async () => {
        const dir = `${root}/${name.replaceAll(" ", "-")}`;
        const home = `${dir}/absolute-home`;
        const [a, b] = [`${dir}/a`, `${dir}/b`];
        for (const d of [home, a, b]) await Deno.mkdir(d, { recursive: true, mode: 0o700 });
        const env = { HOME: home, DENO_DIR: denoDir, ...vars };
        const first = await takeLock("--allow-env", env, a);
        const second = await takeLock("--allow-env", env, b);
        const locks = locksUnder(dir);
        // The loss: one file per working folder, so neither process waits for the other.
        assert.ok(locks.length <= 1, `two lock files for one wallet: ${locks.join(", ")}`);
        if (expected === "home") {
          assert.deepEqual(locks, [
            `${home}/.local/state/tidepool/locks/${first.path?.split("/").at(-1)}`,
          ]);
          assert.equal(first.path, second.path);
        } else {
          assert.deepEqual(locks, []);
          for (const answer of [first, second]) {
            assert.match(String(answer.error), /not an absolute path/);
            assert.match(String(answer.error), expected);
          }
        }
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
