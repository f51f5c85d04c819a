import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";

Deno.test("stopping a streamed harvest early cancels the page requested ahead", async () => {
  // A slow repository: every answer after the first waits 300 ms.
  const sandbox = startOaiSandbox({ pageSize: 50 });
  let aborted = 0;
  let timers = 0;
  const slowFetch: typeof fetch = async (input, init) => {
    const url = new URL(new Request(input).url);
    if (url.searchParams.has("resumptionToken")) {
      await new Promise((resolve, reject) => {
        timers++;
        const timer = setTimeout(resolve, 300);
        init?.signal?.addEventListener("abort", () => {
          aborted++;
          clearTimeout(timer);
          reject(init.signal!.reason);
        });
      });
    }
    return fetch(input, init);
  };
  try {
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      fetch: slowFetch,
    });
    const started = Date.now();
    for await (const page of oai.harvestRecords({ metadataPrefix: "oai_dc" })) {
      assert.equal(page.page, 1);
      break;
    }
    assert.ok(Date.now() - started < 250, "did not wait for the page requested ahead");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(timers, 1, "page 2 was requested ahead");
    assert.equal(aborted, 1, "and cancelled when the loop stopped");
  } finally {
    await sandbox.close();
  }
});
