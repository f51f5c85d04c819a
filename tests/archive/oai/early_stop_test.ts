import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";
import { BEYOND_HOLD_MS, Counter, type HoldEnd, holdRequest, within } from "../../_events.ts";

/**
 * A slow repository: every page after the first is held until cancelled
 * (or the bound, see HOLD_BOUND_MS), and counts how it ended; `sent` and
 * `ended` can be waited on.
 */
function slowRepository() {
  const counts = { sent: 0, aborted: 0 };
  const sent = new Counter();
  const ended = new Counter();
  const ends: HoldEnd[] = [];
  const slowFetch: typeof fetch = async (input, init) => {
    const url = new URL(new Request(input).url);
    if (url.searchParams.has("resumptionToken")) {
      counts.sent = sent.add();
      try {
        await holdRequest(init?.signal, ends);
      } finally {
        counts.aborted = ends.filter((end) => end === "aborted").length;
        ended.add();
      }
    }
    return fetch(input, init);
  };
  return { counts, sent, ended, ends, slowFetch };
}

Deno.test("a break out of harvestRecords() right away sends no page ahead", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, slowFetch } = slowRepository();
  try {
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      timeoutMs: BEYOND_HOLD_MS,
      fetch: slowFetch,
    });
    for await (const page of oai.harvestRecords({ metadataPrefix: "oai_dc" })) {
      assert.equal(page.page, 1);
      break;
    }
    // A page ahead would be held until cancelled, so the break did not wait for one
    // if none went out; one that went out later would show here.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(counts.sent, 0, "page 2 was not requested");
    assert.equal(sandbox.providers["acme/letters"].hits.get("ListRecords"), 1);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a caller working on a page gets the next one read ahead, cancelled on break", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, sent, ended, ends, slowFetch } = slowRepository();
  try {
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      timeoutMs: BEYOND_HOLD_MS,
      fetch: slowFetch,
    });
    for await (const page of oai.harvestRecords({ metadataPrefix: "oai_dc" })) {
      assert.equal(page.page, 1);
      // The caller's own work, during which page 2 goes out.
      await within(sent.reached(1), undefined);
      assert.equal(counts.sent, 1, "page 2 went out while the caller worked");
      break;
    }
    await ended.reached(1);
    assert.deepEqual(ends, ["aborted"], "and was cancelled when the loop stopped");
  } finally {
    await sandbox.close();
  }
});

Deno.test("harvest({ signal }) stops within one request and cancels the page in flight", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  const { counts, ended, ends, slowFetch } = slowRepository();
  try {
    const controller = new AbortController();
    const oai = new OaiPmh(`${sandbox.url}/acme/letters/api/oai`, {
      progress: false,
      concurrency: 1, // the one-list harvest; windows: tests/archive/oai/windows_test.ts
      timeoutMs: BEYOND_HOLD_MS,
      // The user stops the harvest once page 2 is in flight.
      fetch: (input, init) => {
        const answer = slowFetch(input, init);
        if (counts.sent === 1) {
          queueMicrotask(() => controller.abort(new Error("stopped by the user")));
        }
        return answer;
      },
    });
    const error = await oai.harvest({ metadataPrefix: "oai_dc", signal: controller.signal })
      .catch((e) => e);
    assert.equal(error?.message, "stopped by the user");
    assert.equal(counts.sent, 1, "page 2 was requested");
    await ended.reached(1);
    assert.deepEqual(ends, ["aborted"], "and cancelled, not waited for");
  } finally {
    await sandbox.close();
  }
});
