/**
 * Stopping a job and following its logs on the sandbox node, as ocean-node
 * serves them: `PUT /api/services/compute` signed `stopCompute`,
 * `GET /api/services/computeStreamableLogs` signed
 * `getComputeStreamableLogs`, job ids short or `<hash>-<jobId>`. The jobs
 * run on a clock the test moves, so nothing waits on a duration.
 */

import assert from "node:assert/strict";
import { signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import { HttpError, TidepoolError } from "../../lib/errors/errors.ts";
import { sandboxOnClock, signer, startJob, STEP_MS } from "./_job_clock.ts";
import { longJobId } from "./_job_ids.ts";

/**
 * Moves the clock to step `step` of the job (4 is status 40, the algorithm
 * running; 4.99 its end, when every log line has come).
 */
function atStep(clock: { now: number }, started: number, step: number) {
  clock.now = started + step * STEP_MS;
}

Deno.test("computeLogs yields the algorithm's lines while it runs, and shows them as progress", async () => {
  const { sandbox, clock, node, events } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  atStep(clock, started, 4.99);
  assert.equal((await node.job(signer.address, job.jobId)).status, 40);

  const lines: string[] = [];
  for await (const line of node.computeLogs(job.jobId, { signer })) lines.push(line);

  atStep(clock, started, 20);
  const done = await node.job(signer.address, job.jobId);
  const index = done.results!.findIndex((r) => r.type === "algorithmLog");
  const log = await node.resultText(done, index, { signer });
  assert.deepEqual(lines, log.replace(/\n$/, "").split("\n"));
  assert.ok(lines.length >= 2, `the summary run logs several lines, got ${lines.length}`);
  const progress = events.filter((e) => e.label === `computeLogs ${job.jobId}`);
  assert.equal(progress.at(-1)?.state, "done");
  const running = progress.filter((e) => e.state === "running" && e.done > 0);
  assert.deepEqual(running.map((e) => e.detail), lines.map((line) => line.slice(0, 80)));
});

Deno.test("computeLogs of a job not running is the node's 404, with what to do instead", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  for (const step of [1, 20]) {
    atStep(clock, started, step);
    await assert.rejects(
      async () => {
        for await (const _line of node.computeLogs(job.jobId, { signer })) { /* none */ }
      },
      (error: unknown) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 404);
        assert.match(error.message, /Job not found or not running/);
        assert.match(error.hint ?? "", /waitForJob.*resultText/);
        return true;
      },
    );
  }
});

Deno.test("stopCompute stops a running job: signed, it ends at the next step without output", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  atStep(clock, started, 4);
  const nonceBefore = await node.nonce(signer.address);

  const answered = await node.stopCompute(job.jobId, { signer });
  assert.equal(answered.jobId, job.jobId);
  assert.equal(answered.status, 40, "the node answers the job as it was when asked");
  assert.ok(BigInt(await node.nonce(signer.address)) > BigInt(nonceBefore), "the stop was signed");
  const put = sandbox.compute!.requests.filter((r) => r.method === "PUT");
  assert.deepEqual(put, [{ method: "PUT", path: "/api/services/compute" }]);

  atStep(clock, started, 5);
  const ended = await node.job(signer.address, job.jobId);
  assert.equal(ended.status, 70);
  assert.equal(ended.terminationDetails?.exitCode, 137);
  assert.deepEqual(
    ended.results!.map((r) => r.type),
    ["imageLog", "configurationLog", "algorithmLog"],
    "no output is published for a stopped job",
  );
  // A job that has ended is answered unchanged.
  const again = await node.stopCompute(job.jobId, { signer });
  assert.equal(again.status, 70);
  atStep(clock, started, 20);
  assert.equal((await node.job(signer.address, job.jobId)).status, 70);
});

Deno.test("stopCompute before the algorithm runs ends the job with no algorithm log, long id too", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  atStep(clock, started, 1);
  const long = longJobId(job);
  await node.stopCompute(long, { signer });
  atStep(clock, started, 30);
  const ended = await node.job(signer.address, long);
  assert.equal(ended.jobId, job.jobId, "job() reads the long form as well");
  assert.equal(ended.status, 70);
  assert.deepEqual(ended.results!.map((r) => r.type), ["imageLog", "configurationLog"]);
});

Deno.test("a stop while the logs stream ends the stream with the lines sent so far", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  // A third of the running step: the first line of three or more has come.
  atStep(clock, started, 4.3);
  const lines: string[] = [];
  for await (const line of node.computeLogs(job.jobId, { signer })) {
    lines.push(line);
    if (lines.length === 1) {
      await node.stopCompute(job.jobId, { signer });
      atStep(clock, started, 5);
    }
  }
  atStep(clock, started, 20);
  const done = await node.job(signer.address, job.jobId);
  const index = done.results!.findIndex((r) => r.type === "algorithmLog");
  const all = (await node.resultText(done, index, { signer })).trimEnd().split("\n");
  assert.ok(all.length >= 3, `the log has ${all.length} lines`);
  assert.deepEqual(lines, [all[0]], "the stream ended with the stop");
});

Deno.test("another wallet cannot stop a job, nor follow a job it does not own by short id", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  atStep(clock, started, 4);
  const other = signerFromPrivateKey(`0x${"22".repeat(32)}`);
  await assert.rejects(() => node.stopCompute(job.jobId, { signer: other }), TidepoolError);
  const long = longJobId(job);
  await assert.rejects(
    () => node.stopCompute(long, { signer: other }),
    /was not stopped: the node has no such job/,
  );
  assert.equal((await node.job(signer.address, job.jobId)).status, 40);
  atStep(clock, started, 20);
  assert.equal((await node.job(signer.address, job.jobId)).terminationDetails?.exitCode, 0);
});

Deno.test("the sandbox node answers the stop and log routes as ocean-node does", async () => {
  const { sandbox, clock, node } = sandboxOnClock();
  await using _ = sandbox;
  const started = clock.now;
  const job = await startJob(node, sandbox);
  atStep(clock, started, 4);
  const base = `${sandbox.url}/api/services`;
  const del = await fetch(`${base}/compute?consumerAddress=${signer.address}&jobId=${job.jobId}`, {
    method: "DELETE",
  });
  assert.deepEqual([del.status, await del.text()], [404, "Not yet implemented!"]);
  const unsigned = await fetch(
    `${base}/compute?consumerAddress=${signer.address}&jobId=x-${job.jobId}`,
    { method: "PUT" },
  );
  assert.equal(unsigned.status, 401);
  await unsigned.body?.cancel();
  const { signRequest } = await import("../../lib/ocean/sign_request.ts");
  const nonce = String(BigInt(await node.nonce(signer.address)) + 1n);
  const fields = await signRequest(signer, "stopCompute", { nonce });
  const short = await fetch(
    `${base}/compute?${new URLSearchParams({ ...fields, jobId: job.jobId })}`,
    { method: "PUT" },
  );
  assert.deepEqual([short.status, await short.text()], [500, "Invalid C2D Environment"]);
  const wrongCommand = await signRequest(signer, "getComputeResult", {
    nonce: String(BigInt(nonce) + 1n),
  });
  const long = longJobId(job);
  const refused = await fetch(
    `${base}/computeStreamableLogs?${new URLSearchParams({ ...wrongCommand, jobId: long })}`,
  );
  assert.equal(refused.status, 401, "the logs are signed for their own command");
  await refused.body?.cancel();
  assert.equal((await node.job(signer.address, job.jobId)).status, 40);
});
