/**
 * The demo recorded against the sandbox, then replayed with the sandbox
 * stopped and network denied (`deno run --deny-net`): every table it writes
 * has the same digest (names, types, values). The compute job's tables are
 * the exception: starting a job is signed, never recorded, so the replay
 * skips it in one line. An edited recording must show as a changed table.
 */

import assert from "node:assert/strict";
import type { TableDigest } from "../../lib/table/mod.ts";
import { cacheEnvironment, editRecordedBody } from "./_replay.ts";
import { runDemo } from "../_child_runs.ts";

/** Runs the demo recording or replaying, and reads the digests of the tables it wrote. */
async function demoInMode(
  mode: "record" | "replay",
  cache: string,
  out: string,
): Promise<{ printed: string; digests: Record<string, TableDigest> }> {
  const permissions = mode === "replay" ? ["-A", "--deny-net"] : ["-A"];
  const printed = await runDemo(out, cacheEnvironment(mode, cache), permissions);
  const digests = JSON.parse(await Deno.readTextFile(`${out}/table_digests.json`));
  return { printed, digests };
}

Deno.test("the demo replays offline to the same tables as its recording", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-demo-replay-" });
  try {
    const recorded = await demoInMode("record", `${dir}/cache`, `${dir}/recorded`);
    const replayed = await demoInMode("replay", `${dir}/cache`, `${dir}/replayed`);
    assert.match(replayed.printed, /^compute: skipped in replay: .*signed request/m);

    const signed = Object.keys(recorded.digests).filter((name) => name.startsWith("compute_"));
    assert.deepEqual(signed, ["compute_result_files", "compute_summary"]);
    const expected = Object.fromEntries(
      Object.entries(recorded.digests).filter(([name]) => !signed.includes(name)),
    );
    assert.ok(Object.keys(expected).length >= 15, Object.keys(expected).join(", "));
    assert.deepEqual(replayed.digests, expected);

    // A recording edited on disk (one book's year) is a different table on replay.
    await editRecordedBody(`${dir}/cache`, /\/api\/books$/, (body) => {
      assert.match(body, /"year":1905\b/);
      return body.replace(/"year":1905\b/, '"year":1906');
    });
    const edited = await demoInMode("replay", `${dir}/cache`, `${dir}/edited`);
    const changed = Object.keys(expected).filter((name) =>
      edited.digests[name]?.sha256 !== expected[name].sha256
    );
    assert.deepEqual(changed, ["expressions_books"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
