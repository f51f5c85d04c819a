/**
 * A metadata-query 500 is the node's "metadata query failure" (spec section
 * 7): the same body fails the same way, so it is thrown at once, with what
 * the node said, and never sent again; a 502 or 503 in front of the node is
 * still retried.
 */

import assert from "node:assert/strict";
import { HttpError } from "../../lib/errors/errors.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";

const QUERY = "/api/aquarius/assets/metadata/query";

/** A client that retries as a user's does by default, quickly, counting the queries it sends. */
function countingNode(url: string): { node: OceanNode; queries: () => number } {
  let queries = 0;
  const node = new OceanNode(url, {
    progress: false,
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
    fetch: (input, init) => {
      if (new URL(String(input instanceof Request ? input.url : input)).pathname === QUERY) {
        queries++;
      }
      return fetch(input, init);
    },
  });
  return { node, queries: () => queries };
}

Deno.test("a metadata-query 500 is thrown at once with the node's text, not retried", async () => {
  const sandbox = startOceanSandbox({ count: 12 });
  try {
    sandbox.queryFailure = true;
    for (
      const call of [
        (node: OceanNode) => node.query({ filter_by: "metadata.type:=dataset" }),
        (node: OceanNode) => node.searchAssets({ type: "dataset" }),
      ]
    ) {
      const { node, queries } = countingNode(sandbox.url);
      await assert.rejects(() => call(node), (error: unknown) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 500);
        assert.match(error.message, /Metadata query failed/);
        assert.match(String(error.details), /ECONNREFUSED/);
        assert.match(String(error.hint), /not retried/);
        return true;
      });
      assert.equal(queries(), 1, "a 500 is sent once");
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("a 503 in front of the metadata query is still retried until the node answers", async () => {
  const sandbox = startOceanSandbox({ count: 12 });
  let refusals = 2;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === QUERY && refusals > 0) {
      refusals--;
      return new Response("Service Unavailable", { status: 503 });
    }
    return fetch(`${sandbox.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  });
  try {
    const { node, queries } = countingNode(`http://127.0.0.1:${server.addr.port}`);
    const [result] = await node.query({ filter_by: "metadata.type:=dataset" });
    assert.ok(result.hits.length > 0);
    assert.equal(queries(), 3, "two 503s, then the answer");
  } finally {
    await server.shutdown();
    await sandbox.close();
  }
});
