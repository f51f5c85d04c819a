/**
 * The free tier's `maxJobs` is checked before a start, as ocean-node checks
 * it: no more than that many free jobs running in the environment. The
 * environments are read live for it, so a recorded answer from before the
 * jobs started cannot let a doomed start through; once a job ends, its slot
 * is free again.
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { setup } from "./_setup.ts";

Deno.test("a free start past free.maxJobs is refused before signing, even after a stale recording", async () => {
  let now = Date.now();
  const context = await setup({ stepMs: 1_000, now: () => now });
  const dir = await Deno.makeTempDir({ prefix: "tidepool-maxjobs-" });
  try {
    const node = new OceanNode(context.sandbox.url, {
      progress: false,
      retry: false,
      cache: { dir, mode: "record" },
    });
    const chainId = 11155111;
    // Recorded while nothing runs: a start must not trust this answer later.
    const [recorded] = await node.computeEnvironments(chainId);
    const maxJobs = recorded.free!.maxJobs;
    assert.equal(maxJobs, 3);
    for (let i = 0; i < maxJobs; i++) await node.startFreeCompute(context.request);
    const starts = () =>
      context.compute.requests.filter((r) => r.path === "/api/services/freeCompute").length;
    assert.equal(starts(), maxJobs);

    await assert.rejects(() => node.startFreeCompute(context.request), (error: unknown) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, /already runs 3 free jobs, its free maximum \(free\.maxJobs 3\)/);
      return true;
    });
    assert.equal(starts(), maxJobs, "the refused start never reached the node");
    assert.equal(context.compute.engine.activeInEnvironment(recorded.id), maxJobs);

    // Once the jobs have run their course, a slot is free again.
    now += 60 * 60_000;
    assert.equal(context.compute.engine.activeInEnvironment(recorded.id), 0);
    const [job] = await node.startFreeCompute(context.request);
    assert.equal(typeof job.jobId, "string");
    assert.equal(starts(), maxJobs + 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await context.sandbox.close();
  }
});

Deno.test("the sandbox node itself refuses a fourth free job, as ocean-node does", async () => {
  const context = await setup({ stepMs: 60_000 });
  try {
    const { startFreeCompute } = await import("../../lib/ocean/compute/mod.ts");
    // The environments as they were before any job: the local check passes, the node refuses.
    for (let i = 0; i < 3; i++) {
      await startFreeCompute(context.http, context.request, context.environments);
    }
    await assert.rejects(
      () => startFreeCompute(context.http, context.request, context.environments),
      /Too many running free jobs/,
    );
  } finally {
    await context.sandbox.close();
  }
});
