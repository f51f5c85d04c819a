import assert from "node:assert/strict";
import { join } from "node:path";
import {
  downloadResults,
  jobs,
  resultText,
  startFreeCompute,
  waitForJob,
} from "../../lib/ocean/compute/mod.ts";
import { expectedStats, setup, signer } from "./_setup.ts";
import { fullJobId } from "../../lib/ocean/compute/_jobs_list.ts";

Deno.test("free compute end to end: environments, start, wait, download every result, check the output", async () => {
  const { sandbox, http, events, environments, request, pair } = await setup();
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(environments[0].free?.maxJobDuration, 600);
    const started = await startFreeCompute(http, {
      ...request,
      algorithm: { ...request.algorithm, algocustomdata: { columns: ["value", "temperature"] } },
    }, environments);
    assert.equal(started.length, 1);
    const [job] = started;
    assert.equal(job.owner, signer.address);

    const listed = await jobs(http, signer, { jobId: job.jobId });
    assert.equal(listed.numRows(), 1);
    // The start may answer either form (ocean-node's long one, the spec's short one).
    assert.equal(listed.get("fullJobId", 0), fullJobId(job));
    assert.ok(listed.get("dateCreated", 0) instanceof Date);

    const done = await waitForJob(http, signer.address, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    assert.ok(done.status === 70 || done.status === 71);
    const polls = events.filter((e) => e.label === `waitForJob ${job.jobId}`);
    assert.ok(polls.some((e) => /Running algorithm/.test(e.detail ?? "")) || polls.length > 1);
    assert.equal(polls.at(-1)?.state, "done");

    const table = await downloadResults(http, done, { signer, dir });
    const types = table.array("type") as string[];
    assert.deepEqual(
      [...types].sort(),
      ["algorithmLog", "configurationLog", "imageLog", "output", "publishLog"],
    );
    assert.deepEqual(table.columnNames(), ["index", "type", "filename", "path", "bytes", "sha256"]);
    const row = types.indexOf("output");
    const path = table.get("path", row) as string;
    assert.equal(path, join(dir, "summary.json"));
    const output = JSON.parse(await Deno.readTextFile(path));
    // The dataset's own files, as the node serves them, joined as the algorithm reads them.
    const parts = sandbox.files(pair.dataset.documentId, pair.dataset.serviceId)
      .map((file) => new TextDecoder().decode(file.bytes));
    const expected = expectedStats(parts, "value");
    const got = output[pair.dataset.documentId].columns.value;
    assert.equal(got.count, expected.count);
    assert.ok(Math.abs(got.mean - expected.mean) < 1e-9);
    assert.equal(got.min, expected.min);
    assert.equal(got.max, expected.max);
    const bytes = (await Deno.readFile(path)).byteLength;
    assert.equal(table.get("bytes", row), bytes);
    const hash = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", await Deno.readFile(path))),
    ).map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.equal(table.get("sha256", row), hash);
    // No temporary file is left behind.
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(names.length, 5);
    assert.ok(!names.some((n) => n.endsWith(".part")));

    const log = await resultText(http, done, types.indexOf("algorithmLog"), { signer });
    assert.match(log, /summarised/);
    // Each result request carried its own signature (getComputeResult): one per file plus the text.
    const resultRequests = sandbox.compute!.requests.filter((r) =>
      r.path === "/api/services/computeResult"
    );
    assert.equal(resultRequests.length, 6);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
