/**
 * The jobs table keeps what a job produced (its result files, isFree,
 * resources), jobResults gives one row per file, and the agreementId and
 * includeMetrics filters reach the node.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import {
  JOB_RESULT_COLUMNS,
  jobResults,
  jobs,
  startFreeCompute,
  waitForJob,
} from "../../lib/ocean/compute/mod.ts";
import { rows } from "../../lib/table/mod.ts";
import { setup, signer } from "./_setup.ts";
import { longJobId } from "./_job_ids.ts";

Deno.test("jobs(): result files nested per job; jobResults(): one row per file", async () => {
  const context = await setup();
  try {
    const [job] = await startFreeCompute(context.http, context.request, context.environments);
    const before = await jobs(context.http, signer, { jobId: job.jobId });
    assert.deepEqual(before.get("results", 0), []);
    assert.equal(before.get("isFree", 0), true);
    const granted = before.get("resources", 0) as { id: string; amount: number }[];
    assert.equal(granted.find((r) => r.id === "cpu")?.amount, 1);
    const done = await waitForJob(context.http, signer, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    const table = await jobs(context.http, signer, { jobId: job.jobId });
    const files = table.get("results", 0) as {
      index: number;
      filename: string;
      filesize: number;
      type: string;
    }[];
    assert.equal(files.length, done.results!.length);
    assert.equal(table.get("resultCount", 0), files.length);
    done.results!.forEach((file, index) => {
      assert.deepEqual(files[index], {
        index,
        filename: file.filename,
        filesize: file.filesize,
        type: file.type,
      });
    });
    const perFile = rows(
      await jobResults(context.http, signer, { jobId: job.jobId }),
      JOB_RESULT_COLUMNS,
    );
    assert.equal(perFile.length, files.length);
    // The start may answer either form (ocean-node's long one, the spec's short one).
    const fullJobId = longJobId(job);
    for (const row of perFile) {
      assert.equal(
        longJobId({ environment: job.environment, jobId: String(row.jobId) }),
        fullJobId,
      );
      assert.equal(row.fullJobId, fullJobId);
      assert.deepEqual(
        { index: row.index, filename: row.filename, filesize: row.filesize, type: row.type },
        files[row.index!],
      );
    }
    assert.ok(perFile.some((row) => row.type === "output"));
    // Another consumer's listing has no rows, and the table keeps its columns.
    const none = await jobResults(context.http, "0x0000000000000000000000000000000000000001");
    assert.deepEqual(none.columnNames(), JOB_RESULT_COLUMNS.names);
    assert.equal(none.numRows(), 0);
  } finally {
    await context.sandbox.close();
  }
});

Deno.test("jobs(): agreementId and includeMetrics are sent; a free job matches no agreement", async () => {
  const context = await setup();
  const sent: URL[] = [];
  const http = new HttpClient(context.sandbox.url, {
    progress: false,
    fetch: (input, init) => {
      sent.push(new URL(String(input instanceof Request ? input.url : input)));
      return fetch(input, init);
    },
  });
  try {
    await startFreeCompute(context.http, context.request, context.environments);
    assert.equal((await jobs(http, signer)).numRows(), 1);
    const agreed = await jobs(http, signer, { agreementId: "0xabc" });
    assert.equal(agreed.numRows(), 0);
    assert.equal(sent.at(-1)!.searchParams.get("agreementId"), "0xabc");
    const withMetrics = await jobs(http, signer, { includeMetrics: true });
    assert.equal(sent.at(-1)!.searchParams.get("includeMetrics"), "true");
    assert.equal(withMetrics.numRows(), 1);
    assert.ok(withMetrics.columnNames().includes("metrics"));
  } finally {
    await context.sandbox.close();
  }
});
