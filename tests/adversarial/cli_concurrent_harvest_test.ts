/**
 * Two `tidepool harvest` runs on one state file (two cron jobs that
 * overlap, a manual run during the nightly one): they share the pending
 * state `<state>.pending`, and the one that commits first takes the other's
 * away. Ordered deterministically in this process: run A has harvested and
 * is writing its file while run B harvests and commits. The command's own
 * step, `harvestThenCommit`, is called with a delivery that waits; exit
 * codes are the command's (`exitCodeOf`).
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../lib/archive/oai/oai_pmh.ts";
import { harvestThenCommit } from "../../lib/cli/incremental_harvest.ts";
import { EXIT, exitCodeOf } from "../../lib/cli/exit_codes.ts";
import { hostileOai } from "./_hostile_oai.ts";

Deno.test("tidepool harvest: two runs on one state file end in a clear outcome, not a fault", async () => {
  await using oai = hostileOai([
    { identifier: "oai:x:1", datestamp: "2026-01-01T00:00:00Z" },
    { identifier: "oai:x:2", datestamp: "2026-01-02T00:00:00Z" },
  ]);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-adv-concurrent-" });
  const state = `${dir}/letters.csv.harvest.json`;
  const client = () => new OaiPmh(oai.url, { progress: false, warn: () => {} });
  try {
    await harvestThenCommit(client(), { state }, true, () => Promise.resolve());
    oai.records.push({ identifier: "oai:x:3", datestamp: "2026-02-01T00:00:00Z" });

    let release = () => {};
    const gate = new Promise<void>((resolve) => release = resolve);
    let entered = () => {};
    const delivering = new Promise<void>((resolve) => entered = resolve);
    const a = harvestThenCommit(client(), { state }, true, async () => {
      entered();
      await gate; // writing its file
    }).then(() => undefined, (error: unknown) => error);
    await delivering;
    const b = await harvestThenCommit(client(), { state }, true, () => Promise.resolve())
      .then(() => undefined, (error: unknown) => error);
    release();
    const outcomes = [await a, b];
    for (const [run, error] of outcomes.entries()) {
      if (error === undefined) continue;
      assert.notEqual(
        exitCodeOf(error, 1),
        EXIT.internal,
        `run ${"AB"[run]} ended as a fault of tidepool: ${String(error)}`,
      );
    }
    const committed = JSON.parse(await Deno.readTextFile(state));
    assert.equal(committed.inProgress, false, "the committed state is a finished harvest");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
