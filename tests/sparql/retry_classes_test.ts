/**
 * Which SPARQL error answers are retried: a body that names a fault of the
 * query (Virtuoso's codes) is sent once, whatever its status; a 500 or 503
 * without one (a deadlock, a restart, a proxy) is retried as before.
 */

import assert from "node:assert/strict";
import { SparqlEndpoint, SparqlServerError } from "../../mod.ts";

const ANSWER =
  '{"head":{"vars":["n"]},"results":{"bindings":[{"n":{"type":"literal","value":"1"}}]}}';

/** A loopback endpoint that answers `failures` with `status` and `body`, then a result. */
async function withEndpoint(
  failures: number,
  status: number,
  body: string,
  run: (endpoint: SparqlEndpoint, requests: () => number) => Promise<void>,
): Promise<void> {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    if (requests > 10) return new Response("too many", { status: 429 });
    return requests <= failures
      ? new Response(body, { status, headers: { "content-type": "text/plain" } })
      : new Response(ANSWER, { headers: { "content-type": "application/sparql-results+json" } });
  });
  try {
    const endpoint = new SparqlEndpoint(`http://127.0.0.1:${server.addr.port}/sparql`, {
      progress: false,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    await run(endpoint, () => requests);
  } finally {
    await server.shutdown();
  }
}

Deno.test("faults of the query are sent once, whatever the status", async () => {
  const final = [
    [400, "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error", "syntax"],
    [500, "Virtuoso 42001 Error SR185: Undefined procedure DB.DBA.x.", "function"],
    [500, "Virtuoso 22023 Error SR353: Sorted TOP clause specifies more then 10100 rows", "window"],
    [500, "Virtuoso S1T00 Error SR171: Transaction timed out", "timeout"],
    [503, "Virtuoso S1T00 Error SR171: Transaction timed out", "timeout"],
  ] as const;
  for (const [status, body, fault] of final) {
    await withEndpoint(
      5,
      status,
      `${body}\n\nSPARQL query:\nSELECT 1`,
      async (endpoint, requests) => {
        const error = await endpoint.query("SELECT ?n WHERE { ?s ?p ?n }").catch((e) => e);
        assert.ok(error instanceof SparqlServerError, `${body}: ${error}`);
        assert.equal(error.fault, fault);
        assert.equal(requests(), 1, `${body}: sent once`);
      },
    );
  }
});

Deno.test("a 500 or 503 without a fault of the query is retried", async () => {
  const transient = [
    [500, "Virtuoso 40001 Error SR172: Transaction deadlocked"],
    [503, "Service Temporarily Unavailable"],
    [500, "<html><body>Internal Server Error</body></html>"],
  ] as const;
  for (const [status, body] of transient) {
    await withEndpoint(2, status, body, async (endpoint, requests) => {
      const rows = await endpoint.query("SELECT ?n WHERE { ?s ?p ?n }");
      assert.equal(rows.numRows(), 1);
      assert.equal(requests(), 3, `${body}: two failures, then the answer`);
    });
  }
});
