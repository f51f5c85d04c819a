/**
 * `tidepool compute logs|stop` as a user runs it, in a child process,
 * against a sandbox node whose jobs move on a clock the test moves.
 */

import assert from "node:assert/strict";
import { SANDBOX_WALLET_KEY, startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { runTidepool } from "./_run_cli.ts";
import { sandboxOnClock, signer, startJob, STEP_MS } from "../ocean_compute/_job_clock.ts";

Deno.test("tidepool compute logs prints a running job's lines; compute stop stops it", async () => {
  const { sandbox, clock, node, started } = sandboxOnClock();
  await using _ = sandbox;
  const cwd = await Deno.makeTempDir();
  try {
    const job = await startJob(node, sandbox);
    const env = { WALLET_KEY: SANDBOX_WALLET_KEY };
    clock.now = started + 4.99 * STEP_MS;
    const logs = await runTidepool(
      ["compute", "logs", sandbox.url, job.jobId, "--key-env", "WALLET_KEY"],
      { cwd, env },
    );
    assert.equal(logs.code, 0, logs.stderr);
    const lines = logs.stdout.trimEnd().split("\n");
    assert.ok(lines.length >= 2, logs.stdout);
    assert.match(
      logs.stderr,
      new RegExp(`compute logs: ${lines.length} lines of job ${job.jobId}`),
    );
    assert.ok(!logs.stderr.includes(SANDBOX_WALLET_KEY.slice(2)), "the key is never shown");

    const stop = await runTidepool(
      ["compute", "stop", sandbox.url, job.jobId, "--key-env", "WALLET_KEY"],
      { cwd, env },
    );
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.stderr, /job \w+ asked to stop \(status 40 /);
    clock.now = started + 20 * STEP_MS;
    const ended = await node.job(signer.address, job.jobId);
    assert.deepEqual([ended.status, ended.terminationDetails?.exitCode], [70, 137]);
    assert.equal(
      lines.join("\n") + "\n",
      await node.resultText(
        ended,
        ended.results!.findIndex((r) => r.type === "algorithmLog"),
        { signer },
      ),
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("tidepool compute refuses an unknown action and a missing key, before any request", async () => {
  await using sandbox = startOceanSandbox({ compute: { stepMs: STEP_MS } });
  const cwd = await Deno.makeTempDir();
  try {
    const wrong = await runTidepool(["compute", "pause", sandbox.url, "abc"], { cwd });
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stderr, /Unknown action pause/);
    const keyless = await runTidepool(["compute", "stop", sandbox.url, "abc"], { cwd });
    assert.equal(keyless.code, 2, keyless.stderr);
    assert.match(keyless.stderr, /needs the job owner's key/);
    assert.deepEqual(sandbox.compute!.requests, []);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
