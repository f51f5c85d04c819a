/**
 * The servers of tests/performance/ratio_guard_test.ts, in their own process
 * so that they answer while the test's process works (as a real service
 * does): the expression sandbox, a SPARQL endpoint that answers every query
 * with one results document per format (the bench's "six" shape, from real
 * services), an OAI-PMH site and the subgraph. Prints their addresses as one
 * JSON line, then serves until stdin closes.
 */

import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";
import { seedOaiRecords, startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";
import { serveSubgraph } from "../../lib/sandbox/subgraph/mod.ts";
import { jsonDocument, xmlDocument } from "../../bench/_sparql_shapes.ts";

const GUARD_SIZES = { expressions: 10_000, sparqlRows: 20_000, oai: 5_000, orders: 10_000 };

const expressions = startExpressionSandbox({ size: GUARD_SIZES.expressions });
const oai = startOaiSandbox({
  sites: {
    "acme/guard": {
      records: seedOaiRecords({ count: GUARD_SIZES.oai, seed: 11, site: "acme/guard" }),
      pageSize: 500,
    },
  },
});
const subgraph = serveSubgraph({ orders: GUARD_SIZES.orders });
const documents = {
  json: jsonDocument("six", GUARD_SIZES.sparqlRows),
  xml: xmlDocument("six", GUARD_SIZES.sparqlRows),
};
const sparql = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const match = /\/api\/guard\/dl\/(json|xml)\/sparql$/.exec(new URL(request.url).pathname);
  if (!match) return new Response("Not found", { status: 404 });
  const format = match[1] as "json" | "xml";
  return new Response(documents[format], {
    headers: { "content-type": `application/sparql-results+${format}; charset=utf-8` },
  });
});
console.log(JSON.stringify({
  expressions: expressions.url,
  oai: `${oai.url}/acme/guard/api/oai`,
  subgraph: subgraph.endpoint,
  sparql: `http://127.0.0.1:${sparql.addr.port}`,
}));
for await (const _ of Deno.stdin.readable) { /* serve until the test closes stdin */ }
await Promise.all([expressions.close(), oai.close(), subgraph.close(), sparql.shutdown()]);
