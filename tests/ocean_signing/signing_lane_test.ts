import assert from "node:assert/strict";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { inSigningLane } from "../../lib/ocean/_signing_lane.ts";
import type { ComputeJob } from "../../lib/ocean/compute/mod.ts";
import { setup, signer } from "../ocean_compute/_setup.ts";
import { within } from "../_events.ts";

// Issue 14: eight parallel signed calls from one wallet failed 13 times in 40
// with a nonce mismatch, because nonces were handed out in order but the
// requests reached the node out of order.
Deno.test("8 parallel signed calls from one wallet all succeed, 5 rounds", async () => {
  const { sandbox, request } = await setup();
  const node = new OceanNode(sandbox.url, { progress: false, retry: false });
  try {
    const jobs: ComputeJob[] = [];
    for (let i = 0; i < 2; i++) {
      const [started] = await node.startFreeCompute(request);
      jobs.push(await node.waitForJob(signer.address, started.jobId, { pollMs: 20 }));
    }
    const reads = jobs.flatMap((job) => (job.results ?? []).map((_, index) => ({ job, index })))
      .slice(0, 8);
    assert.equal(reads.length, 8);
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const settled = await Promise.allSettled(
        reads.map(({ job, index }) => node.resultText(job, index, { signer })),
      );
      for (const outcome of settled) {
        if (outcome.status === "rejected") failures.push(String(outcome.reason?.message));
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of 40 signed calls failed`);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a lane runs calls of one wallet one at a time, in the order made; other wallets pass", async () => {
  const node = "http://127.0.0.1:1";
  const log: string[] = [];
  // a1 holds its lane until b1, of another wallet, has finished: if the other
  // wallet waited for a1, a1 would wait out the bound and b1 would finish last.
  const b1Done = Promise.withResolvers<void>();
  const call = (address: string, name: string, until: Promise<unknown> = Promise.resolve()) =>
    inSigningLane(node, address, async () => {
      log.push(`${name} in`);
      await until;
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(`${name} out`);
      return name;
    });
  const results = await Promise.all([
    call("0xAA", "a1", within(b1Done.promise, undefined)),
    call("0xaa", "a2"),
    call("0xBB", "b1").finally(() => b1Done.resolve()),
    call("0xAa", "a3"),
  ]);
  assert.deepEqual(results, ["a1", "a2", "b1", "a3"]);
  const wallet = log.filter((entry) => entry.startsWith("a"));
  assert.deepEqual(wallet, ["a1 in", "a1 out", "a2 in", "a2 out", "a3 in", "a3 out"]);
  assert.ok(log.indexOf("b1 out") < log.indexOf("a1 out"), "another wallet does not wait");
});

Deno.test("aborting a call waiting in the lane rejects it at once and does not hold up the rest", async () => {
  const node = "http://127.0.0.1:2";
  let release!: () => void;
  const first = inSigningLane(
    node,
    "0xcc",
    () => new Promise<string>((r) => release = () => r("first")),
  );
  const controller = new AbortController();
  let secondRan = false;
  const second = inSigningLane(node, "0xcc", () => {
    secondRan = true;
    return Promise.resolve("second");
  }, controller.signal);
  const third = inSigningLane(node, "0xcc", () => Promise.resolve("third"));
  controller.abort(new Error("stopped"));
  await assert.rejects(second, /stopped/);
  release();
  assert.equal(await first, "first");
  assert.equal(await third, "third");
  assert.equal(secondRan, false);
  await assert.rejects(
    inSigningLane(node, "0xcc", () => Promise.resolve(1), AbortSignal.abort(new Error("late"))),
    /late/,
  );
});
