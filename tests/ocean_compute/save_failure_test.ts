/** A download whose folder or temporary file cannot be made cancels the response body. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { HttpClient } from "../../lib/http/client.ts";
import { downloadResults, startFreeCompute, waitForJob } from "../../lib/ocean/compute/mod.ts";
import { setup, signer } from "./_setup.ts";

Deno.test("a result download cancels the body when its folder cannot be created", async () => {
  const context = await setup();
  const root = await Deno.makeTempDir();
  const cancelled: string[] = [];
  // A client whose result bodies report being cancelled.
  const http = new HttpClient(context.sandbox.url, {
    progress: false,
    retry: false,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes("/computeResult") || !response.body) return response;
      const reader = response.body.getReader();
      const tracked = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        async cancel(reason) {
          cancelled.push(url);
          await reader.cancel(reason);
        },
      });
      return new Response(tracked, { status: response.status, headers: response.headers });
    },
  });
  try {
    const [job] = await startFreeCompute(context.http, context.request, context.environments);
    const done = await waitForJob(context.http, signer, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    // A file where the folder should be: the folder cannot be created.
    const blocked = join(root, "taken");
    await Deno.writeTextFile(blocked, "not a folder");
    await assert.rejects(
      downloadResults(http, done, { signer, dir: join(blocked, "results"), types: ["output"] }),
    );
    assert.equal(cancelled.length, 1, "the body of the failed save was cancelled");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["taken"]);
  } finally {
    await context.sandbox.close();
    await Deno.remove(root, { recursive: true });
  }
});
