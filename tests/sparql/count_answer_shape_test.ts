/**
 * A server's answer of an unexpected shape is the server's fault, told as
 * a ProtocolError naming what it sent, never a TypeError: the COUNT that
 * checks paging without its `tidepool_count` column, with a value that is
 * not a whole number, with no row, or as a boolean, and a page that is a
 * boolean rather than rows (`SparqlEndpoint.all`, `sparqlAll`).
 */

import assert from "node:assert/strict";
import { ProtocolError, SparqlEndpoint } from "../../mod.ts";

const JSON_TYPE = { "content-type": "application/sparql-results+json" };
const ROWS = JSON.stringify({
  head: { vars: ["n"] },
  results: { bindings: [{ n: { type: "literal", value: "1" } }] },
});

/** A loopback endpoint answering the COUNT with `count` and every other query with `page`. */
async function allWith(count: string, page = ROWS): Promise<unknown> {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (++requests > 10) return new Response("too many", { status: 429 });
    const url = new URL(request.url);
    const query = url.searchParams.get("query") ??
      new URLSearchParams(await request.text()).get("query") ?? "";
    const body = query.includes("tidepool_count") ? count : page;
    return new Response(body, { headers: JSON_TYPE });
  });
  try {
    const endpoint = new SparqlEndpoint(`http://127.0.0.1:${server.addr.port}/sparql`, {
      progress: false,
      retry: false,
    });
    return await endpoint.all("SELECT ?n WHERE { ?s ?p ?n }").then(() => undefined, (e) => e);
  } finally {
    await server.shutdown();
  }
}

const countOf = (vars: string[], bindings: Record<string, unknown>[]) =>
  JSON.stringify({ head: { vars }, results: { bindings } });

Deno.test("a COUNT answer of the wrong shape is a ProtocolError naming what was sent", async () => {
  const cases: [string, string, RegExp][] = [
    [
      "another column",
      countOf(["total"], [{ total: { type: "literal", value: "3" } }]),
      /columns "total"/,
    ],
    ["no column at all", countOf([], [{}]), /columns \(none\)/],
    [
      "a word",
      countOf(["tidepool_count"], [{ tidepool_count: { type: "literal", value: "many" } }]),
      /tidepool_count "many"/,
    ],
    [
      "a negative",
      countOf(["tidepool_count"], [{
        tidepool_count: {
          type: "literal",
          value: "-4",
          datatype: "http://www.w3.org/2001/XMLSchema#integer",
        },
      }]),
      /tidepool_count "-4"/,
    ],
    ["no row", countOf(["tidepool_count"], []), /no row/],
  ];
  for (const [what, body, sent] of cases) {
    const error = await allWith(body);
    assert.ok(error instanceof ProtocolError, `${what}: ${error}`);
    assert.match(error.message, /COUNT without a whole number in tidepool_count/, what);
    assert.match(String(error.details), sent, what);
    assert.match(String(error.hint), /count: false/, what);
  }
});

Deno.test("a boolean where rows belong is a ProtocolError, the COUNT's or a page's", async () => {
  const boolean = JSON.stringify({ head: {}, boolean: true });
  for (const [what, count, page] of [["COUNT", boolean, ROWS], ["page", ROWS, boolean]]) {
    const error = await allWith(
      what === "page"
        ? countOf(["tidepool_count"], [{
          tidepool_count: {
            type: "literal",
            value: "1",
            datatype: "http://www.w3.org/2001/XMLSchema#integer",
          },
        }])
        : count,
      page,
    );
    assert.ok(error instanceof ProtocolError, `${what}: ${error}`);
    assert.match(error.message, new RegExp(`answered the ${what} with a boolean \\(true\\)`));
  }
});
