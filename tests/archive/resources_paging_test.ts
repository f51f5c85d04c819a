import assert from "node:assert/strict";
import { Archive } from "../../mod.ts";
import { PagingCapError, PagingError } from "../../lib/paging/errors.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { BEYOND_HOLD_MS, Counter, type HoldEnd, holdUntilAborted } from "../_events.ts";

const quiet = { progress: false as const, account: "acme", db: "letters", retry: false as const };
const resource = (i: number) => ({ id: `r${i}`, slug: `r${i}`, type: "item", title: `${i}` });

/**
 * A resource list that ignores `page[number]` and reports no total: every
 * page is the first. After 20 requests it answers an empty page, so a
 * client without a repeat guard ends (with 20 copies) instead of hanging.
 */
function ignoringServer() {
  let requests = 0;
  const server = serveLocal(() => {
    requests++;
    const data = requests > 20 ? [] : Array.from({ length: 10 }, (_, i) => resource(i));
    return Response.json({ data });
  });
  return { server, requests: () => requests };
}

Deno.test("resources: a server ignoring page[number] without a total ends in a clear error", async () => {
  const { server, requests } = ignoringServer();
  try {
    const archive = new Archive(server.url, quiet);
    const error = await archive.resources({ pageSize: 10 }).catch((e) => e);
    assert.ok(error instanceof PagingError, `expected a PagingError, got ${error}`);
    assert.equal(error.code, "repeatedPage");
    assert.match(error.message, /archive resources stopped: page 2 repeated page 1/);
    assert.match(error.message, /ignored the page number/);
    assert.equal(requests(), 2);
  } finally {
    await server.close();
  }
});

Deno.test("resources: the page cap names itself and how to raise it", async () => {
  let requests = 0;
  const server = serveLocal((request) => {
    requests++;
    const page = Number(new URL(request.url).searchParams.get("page[number]"));
    return Response.json({ data: Array.from({ length: 10 }, (_, i) => resource(page * 10 + i)) });
  });
  try {
    const archive = new Archive(server.url, quiet);
    const error = await archive.resources({ pageSize: 10, maxPages: 3 }).catch((e) => e);
    assert.ok(error instanceof PagingCapError);
    assert.match(error.message, /cap of 3 pages \(maxPages\)/);
    assert.match(error.message, /archive\.resources\(\)/);
    assert.equal(requests, 3);
  } finally {
    await server.close();
  }
});

Deno.test("resources: a per-call signal cancels the page in flight", async () => {
  let requests = 0;
  const ends: HoldEnd[] = [];
  const endCount = new Counter();
  const controller = new AbortController();
  const server = serveLocal(async (request) => {
    requests++;
    const page = Number(new URL(request.url).searchParams.get("page[number]"));
    if (page > 1) {
      // The user stops once page 2 is in flight; it is answered only after the bound.
      if (page === 2) controller.abort(new Error("the user stopped it"));
      ends.push(await holdUntilAborted(request.signal));
      endCount.add();
    }
    return Response.json({
      data: Array.from({ length: 10 }, (_, i) => resource(page * 10 + i)),
      total: 100,
    });
  });
  try {
    const archive = new Archive(server.url, { ...quiet, timeoutMs: BEYOND_HOLD_MS });
    const error = await archive.resources({ pageSize: 10, signal: controller.signal })
      .catch((e) => e);
    assert.equal(error.message, "the user stopped it");
    assert.ok(requests <= 3, `${requests} requests`);
    // Every page held ended with the client leaving, none with its answer.
    await endCount.reached(requests - 1);
    assert.deepEqual(ends, Array(requests - 1).fill("aborted"));
  } finally {
    await server.close();
  }
});
