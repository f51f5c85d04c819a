import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";

/** A slow repository: every page after the first waits 300 ms, and counts how it ended. */
function slowRepository() {
  const counts = { sent: 0, aborted: 0 };
  const slowFetch: typeof fetch = async (input, init) => {
    const url = new URL(new Request(input).url);
    if (url.searchParams.has("resumptionToken")) {
      counts.sent++;
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 300);
        init?.signal?.addEventListener("abort", () => {
          counts.aborted++;
          clearTimeout(timer);
          reject(init.signal!.reason);
        });
      });
    }
    return fetch(input, init);
  };
  return { counts, slowFetch };
}

Deno.test("a break out of harvestRecords() right away sends no page ahead", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, slowFetch } = slowRepository();
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
    assert.ok(Date.now() - started < 250, "did not wait for a page ahead");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(counts.sent, 0, "page 2 was not requested");
    assert.equal(sandbox.providers["acme/letters"].hits.get("ListRecords"), 1);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a caller working on a page gets the next one read ahead, cancelled on break", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, slowFetch } = slowRepository();
  try {
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      fetch: slowFetch,
    });
    for await (const page of oai.harvestRecords({ metadataPrefix: "oai_dc" })) {
      assert.equal(page.page, 1);
      await new Promise((resolve) => setTimeout(resolve, 30)); // the caller's own work
      assert.equal(counts.sent, 1, "page 2 went out while the caller worked");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counts.aborted, 1, "and was cancelled when the loop stopped");
  } finally {
    await sandbox.close();
  }
});

Deno.test("harvest({ signal }) stops within one request and cancels the page in flight", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, slowFetch } = slowRepository();
  try {
    const controller = new AbortController();
    let abortedAt = 0;
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      concurrency: 1, // the one-list harvest; windows: tests/archive/oai/windows_test.ts
      // The user stops the harvest while page 2 is in flight.
      fetch: (input, init) => {
        const answer = slowFetch(input, init);
        if (counts.sent === 1 && !abortedAt) {
          abortedAt = Date.now() + 20;
          setTimeout(() => controller.abort(new Error("stopped by the user")), 20);
        }
        return answer;
      },
    });
    const error = await oai.harvest({ metadataPrefix: "oai_dc", signal: controller.signal })
      .catch((e) => e);
    assert.equal(error?.message, "stopped by the user");
    assert.ok(Date.now() - abortedAt < 250, "did not wait for the slow page");
    assert.equal(counts.sent, 1, "page 2 was requested");
    assert.equal(counts.aborted, 1, "and cancelled");
  } finally {
    await sandbox.close();
  }
});
