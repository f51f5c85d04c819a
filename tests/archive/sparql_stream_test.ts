/**
 * Without a cache, SPARQL XML and JSON results are read from the body as it arrives:
 * rows are read before the body ends, a body cut short is the connection's
 * error (not a table of the rows so far), and the table is the one the
 * whole text gives. The recorded Virtuoso answer (EEA) is the body.
 */

import assert from "node:assert/strict";
import { Archive, type ArchiveOptions, readSparqlResults } from "../../lib/archive/mod.ts";
import { readXml } from "../../lib/xml/xml.ts";
import { tableDigest } from "../../lib/table/mod.ts";
import { ResponseTooLargeError } from "../../lib/errors/errors.ts";

const XML = Deno.readTextFileSync(
  new URL("../fixtures/sparql-results/eea/countries.srx", import.meta.url),
);
const QUERY = "SELECT * WHERE { ?s ?p ?o }";

/** An Archive of the test server, no cache (so results are streamed). */
function archiveAt(port: number, options: ArchiveOptions = {}): Archive {
  return new Archive(`http://127.0.0.1:${port}`, {
    account: "test",
    db: "results",
    progress: false,
    cache: false,
    ...options,
  });
}

/** Serves the document in `parts` pieces, waiting on `gate(i)` before piece i; optionally cut. */
function serve(parts: string[], gate: (i: number) => Promise<void>, cut = false) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (let i = 0; i < parts.length; i++) {
          await gate(i);
          controller.enqueue(new TextEncoder().encode(parts[i]));
        }
        if (cut) controller.error(new Error("connection cut"));
        else controller.close();
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/sparql-results+xml; charset=utf-8" },
    });
  });
}

Deno.test("readXml reads each chunk as it comes, before the next one exists", async () => {
  const opened: string[] = [];
  const half = XML.indexOf("</head>") + "</head>".length;
  async function* chunks() {
    yield XML.slice(0, half);
    // The head was read from the first chunk before this one was asked for.
    assert.ok(opened.includes("head"), `opened before the second chunk: ${opened}`);
    yield XML.slice(half);
  }
  await readXml(chunks(), "test", "", {
    open: (tag) => opened.push(tag.name),
    close: () => {},
    text: () => {},
  });
  assert.ok(opened.includes("result"));
});

Deno.test("sparql() streams XML results: the same table as the whole text, in pieces", async () => {
  const cuts = [0, 200, 900, 1500, XML.length].filter((n, i, all) => i === 0 || n > all[i - 1]);
  const parts = cuts.slice(1).map((end, i) => XML.slice(cuts[i], end));
  const server = serve(parts, () => new Promise((resolve) => setTimeout(resolve, 5)));
  try {
    const streamed = await archiveAt(server.addr.port).sparql(QUERY, {
      service: "dl",
      method: "GET",
    });
    const whole = await readSparqlResults(XML, { format: "xml" });
    assert.ok(typeof streamed !== "boolean" && typeof whole !== "boolean");
    assert.deepEqual(await tableDigest(streamed), await tableDigest(whole));
    assert.equal(streamed.numRows(), 3);
  } finally {
    await server.shutdown();
  }
});

Deno.test("sparql() fails with the connection's error when the XML body is cut, never a short table", async () => {
  const server = serve([XML.slice(0, XML.indexOf("</result>") + 9)], () => Promise.resolve(), true);
  try {
    const archive = archiveAt(server.addr.port, { retry: { retries: 0 } });
    const error = await archive.sparql(QUERY, { service: "dl", method: "GET" }).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof Error, "a cut body is an error");
    assert.doesNotMatch(String(error.message), /well-formed/, "the cut, not a parse error");
  } finally {
    await server.shutdown();
  }
});

Deno.test("sparql() streams JSON results too, and a streamed body past maxResponseBytes is refused", async () => {
  const json = Deno.readTextFileSync(
    new URL(
      "../fixtures/external/sparql/wikibase-sdk/multi_vars_sparql_results.srj",
      import.meta.url,
    ),
  );
  const cuts = [0, 100, 333, 777, json.length].filter((n, i, all) => i === 0 || n > all[i - 1]);
  const parts = cuts.slice(1).map((end, i) => json.slice(cuts[i], end));
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(ReadableStream.from(parts.map((part) => new TextEncoder().encode(part))), {
        headers: { "content-type": "application/sparql-results+json" },
      }),
  );
  try {
    const archive = (maxResponseBytes?: number) =>
      archiveAt(server.addr.port, { maxResponseBytes });
    const streamed = await archive().sparql(QUERY, { service: "dl", method: "GET" });
    const whole = await readSparqlResults(json, { format: "json" });
    assert.ok(typeof streamed !== "boolean" && typeof whole !== "boolean");
    assert.deepEqual(await tableDigest(streamed), await tableDigest(whole));
    const error = await archive(500).sparql(QUERY, { service: "dl", method: "GET" }).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof ResponseTooLargeError, String(error));
  } finally {
    await server.shutdown();
  }
});
