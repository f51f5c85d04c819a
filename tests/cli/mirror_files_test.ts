/**
 * `tidepool resourcesync --mirror DIR` keeps the resources themselves in
 * `DIR/resources`, as the library's `mirror({ dir })` does: the same files
 * with the same bytes (checked against a library mirror of the same
 * source), a changed resource fetched again on night 2, and a first run
 * whose table never reached its reader resumed by the next one without
 * fetching a file twice.
 */

import assert from "node:assert/strict";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { ResourceSync } from "../../lib/archive/resourcesync/resource_sync.ts";
import { capture, snapshot } from "../adversarial/_cli_capture.ts";
import { runTidepool } from "./_run_cli.ts";

Deno.test("tidepool resourcesync --mirror: the resources are downloaded, updated and resumed", async (t) => {
  await using sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-mirror-files-" });
  const args = ["resourcesync", sandbox.urls.archive, "--site", "shinano/letters"];
  const sync = new ResourceSync(sandbox.urls.archive, { progress: false, site: "shinano/letters" });
  const library = async () => {
    await sync.mirror({ state: `${dir}/lib.json`, dir: `${dir}/lib` });
    return await snapshot(`${dir}/lib`);
  };
  try {
    await t.step("night 1: every listed resource, as the library mirrors it", async () => {
      const run = await runTidepool([...args, "--mirror", "mirror", "--to", "night1.csv"], {
        cwd: dir,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /in mirror\/resources\/: 1,919 files fetched/);
      const files = await snapshot(`${dir}/mirror/resources`);
      assert.equal(Object.keys(files).length, 1919);
      assert.deepEqual(files, await library());
    });
    await t.step("night 2: the changed resource is fetched again", async () => {
      const listed = await sync.resourceList();
      const slug = String(listed.get("loc", 5)).split("/").at(-1)!;
      sandbox.archive.updateResource({ account: "shinano", db: "letters", slug }, {
        title: "Changed tonight",
      });
      const run = await runTidepool([...args, "--mirror", "mirror", "--to", "night2.csv"], {
        cwd: dir,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /changes: 1 resource to night2\.csv; in mirror\/resources\/: 1 file fetched/,
      );
      const files = await snapshot(`${dir}/mirror/resources`);
      assert.ok(Object.entries(files).some(([, text]) => text.includes("Changed tonight")));
      assert.deepEqual(files, await library());
    });
    await t.step(
      "a first run whose reader went away is resumed, nothing fetched twice",
      async () => {
        const mirror = [...args, "--mirror", `${dir}/second`, "--to", "-"];
        const lost = await capture(mirror, { stdoutClosed: true });
        assert.notEqual(lost.code, 0);
        const fetched = await snapshot(`${dir}/second/resources`);
        assert.equal(Object.keys(fetched).length, 1919);
        const next = await capture(mirror);
        assert.equal(next.code, 0, next.stderr);
        assert.match(next.stderr, /baseline: 1,919 resources .*: 0 files fetched, 1,919 unchanged/);
        assert.deepEqual(await snapshot(`${dir}/second/resources`), fetched);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
