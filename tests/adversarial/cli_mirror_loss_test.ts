/**
 * An incremental read must not lose a change when its output is not
 * written: `tidepool resourcesync --mirror` moves the mirror's state on
 * before the table reaches `--to`, so a run whose write fails (or whose
 * reader went away) makes the next run skip the change for good. Child
 * processes against the archive sandbox; the change is made at the server
 * and looked for in the next run's file.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { readTable } from "../../lib/files/read_table.ts";
import { childEnvironment } from "../_child_runs.ts";
import { runTidepool } from "../cli/_run_cli.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs tidepool with its standard output closed before it writes: a reader that went away. */
async function runWithClosedStdout(args: string[], cwd: string): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", `--config=${ROOT}deno.json`, `${ROOT}cli.ts`, ...args],
    cwd,
    env: childEnvironment({ NO_COLOR: "1" }),
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  await child.stdout.cancel();
  return (await child.status).code;
}

Deno.test("tidepool resourcesync --mirror: a change is not lost when the output was not written", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-mirror-" });
  const site = ["resourcesync", sandbox.urls.archive, "--site", "shinano/letters"];
  try {
    for (const mirror of ["control", "failed", "piped"]) {
      const run = await runTidepool([...site, "--mirror", mirror, "--to", `${mirror}.csv`], {
        cwd: dir,
      });
      assert.equal(run.code, 0, run.stderr);
    }
    const loc = String((await readTable(`${dir}/control.csv`)).get("loc", 0));
    // A second later than the baseline, so the change is after the mirror's time.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    sandbox.archive.updateResource({
      account: "shinano",
      db: "letters",
      slug: loc.slice(loc.lastIndexOf("/") + 1),
    }, {
      title: "changed after the baseline",
    });
    const changes = async (mirror: string) => {
      const run = await runTidepool([...site, "--mirror", mirror, "--to", `${mirror}-next.csv`], {
        cwd: dir,
      });
      assert.equal(run.code, 0, run.stderr);
      const table = await readTable(`${dir}/${mirror}-next.csv`);
      return Array.from(table.array("loc") as ArrayLike<unknown>, String);
    };
    await t.step("control: the next run lists the change", async () => {
      assert.deepEqual(await changes("control"), [loc]);
    });

    await t.step("a run whose --to cannot be written, then the next run", async () => {
      await Deno.writeTextFile(`${dir}/blocker`, "a file where a folder is wanted");
      const failed = await runTidepool(
        [...site, "--mirror", "failed", "--to", "blocker/changes.csv"],
        { cwd: dir },
      );
      assert.notEqual(failed.code, 0, "the write failed");
      assert.deepEqual(await changes("failed"), [loc], "the change the failed run did not write");
    });

    await t.step("a run whose standard output was closed, then the next run", async () => {
      await runWithClosedStdout([...site, "--mirror", "piped"], dir);
      assert.deepEqual(await changes("piped"), [loc], "the change no reader received");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
