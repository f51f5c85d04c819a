/**
 * Two `tidepool harvest` processes on one state (two cron jobs that
 * overlap): while the first waits on the repository, the second refuses at
 * once with exit 75 and changes nothing; the first then commits. The
 * repository is a hostile OAI-PMH server on loopback that holds the first
 * run's list until the second has ended; outcomes from the file system.
 */

import assert from "node:assert/strict";
import { readTable } from "../../lib/files/read_table.ts";
import { EXIT } from "../../lib/cli/exit_codes.ts";
import { runTidepool } from "../cli/_run_cli.ts";
import { envelope, hostileOai, recordXml } from "./_hostile_oai.ts";
import { snapshot } from "./_cli_capture.ts";

/**
 * A repository whose ListRecords answers wait for `release()` once `hold()`
 * is called; `listAsked()` resolves when the held list has been asked for.
 */
function heldRepository(listed: { identifier: string; datestamp: string }[]) {
  let release = () => {};
  let gate = Promise.resolve();
  let asked = () => {};
  let listAsked = Promise.resolve();
  // Every request but Identify is a ListRecords here.
  const oai = hostileOai(listed, async () => {
    asked();
    await gate;
    return new Response(
      envelope("ListRecords", `<ListRecords>${listed.map(recordXml).join("")}</ListRecords>`),
      { headers: { "content-type": "text/xml" } },
    );
  });
  return {
    oai,
    hold() {
      gate = new Promise<void>((resolve) => release = resolve);
      listAsked = new Promise<void>((resolve) => asked = resolve);
    },
    release: () => release(),
    listAsked: () => listAsked,
  };
}

Deno.test("tidepool harvest: a second process on the same state refuses while the first runs", async (t) => {
  // Each step holds the first run's list until the second run has ended.
  const listed = [
    { identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z" },
    { identifier: "oai:x:2", datestamp: "2026-01-02T00:00:00Z" },
  ];
  const repository = heldRepository(listed);
  await using oai = repository.oai;
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-two-runs-" });
  try {
    for (const to of ["letters.csv", "-", "parts/"]) {
      await t.step(`--to ${to}`, async () => {
        const state = to === "-" ? ["--state", "piped.json"] : [];
        const args = ["harvest", oai.url, "--to", to, ...state];
        repository.hold();
        const first = runTidepool(args, { cwd: dir });
        await repository.listAsked();
        const before = await snapshot(dir);
        const second = await runTidepool(args, { cwd: dir });
        assert.equal(second.code, EXIT.busy, second.stderr);
        assert.match(second.stderr, /Another tidepool harvest is running with the state/);
        assert.equal(second.stdout, "");
        assert.deepEqual(await snapshot(dir), before, "the second run changed nothing");
        repository.release();
        const done = await first;
        assert.equal(done.code, EXIT.ok, done.stderr);
        assert.doesNotMatch(done.stderr, /continuing the interrupted run/);
      });
    }
    assert.equal((await readTable(`${dir}/letters.csv`)).numRows(), 2);
    const committed = JSON.parse(await Deno.readTextFile(`${dir}/letters.csv.harvest.json`));
    assert.equal(committed.inProgress, false);
  } finally {
    repository.release();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tidepool harvest --sources: a second list into the same folder refuses and names --shard", async () => {
  const repository = heldRepository([{ identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z" }]);
  await using oai = repository.oai;
  repository.hold();
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-two-lists-" });
  try {
    await Deno.writeTextFile(`${dir}/maps.txt`, `${oai.url} set=maps\n`);
    await Deno.writeTextFile(`${dir}/letters.txt`, `${oai.url} set=letters\n`);
    const first = runTidepool(["harvest", "--sources", "maps.txt", "--to", "out/"], { cwd: dir });
    await repository.listAsked();
    const before = await snapshot(dir);
    const second = await runTidepool(["harvest", "--sources", "letters.txt", "--to", "out/"], {
      cwd: dir,
    });
    assert.equal(second.code, EXIT.busy, second.stderr);
    assert.match(second.stderr, /Another tidepool harvest is running/);
    assert.match(second.stderr, /--shard K\/N/, "says how several processes share one folder");
    assert.deepEqual(await snapshot(dir), before, "the second run changed nothing");
    repository.release();
    const done = await first;
    assert.equal(done.code, EXIT.ok, done.stderr);
  } finally {
    repository.release();
    await Deno.remove(dir, { recursive: true });
  }
});
