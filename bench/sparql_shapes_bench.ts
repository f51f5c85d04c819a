/**
 * SPARQL SELECT results of four real-world shapes (see `_sparql_shapes.ts`), 100,000 rows
 * each, in JSON and in XML, read into a table. A loopback server hands out the same
 * document for any query, so every contender reads the same bytes:
 *
 * - the floor: `fetch`, then `JSON.parse` (JSON), or the events of the saxes streaming
 *   parser (XML), of the body, every row kept as the same tree in both formats (a floor
 *   keeps what it reads, as the table does);
 * - tidepool `Archive.sparql`, client defaults (the database's service is given, so no
 *   catalogue request is made);
 * - fetch-sparql-endpoint and sparql-http-client, rows collected into `aq.from`;
 * - SPARQLWrapper + pandas, timed as a whole Python process.
 *
 * Each run is its own process. Run: deno run -A --frozen bench/sparql_shapes_bench.ts [rounds]
 */

import * as aq from "arquero";
import { SaxesParser } from "saxes";
import { SparqlEndpointFetcher } from "fetch-sparql-endpoint";
import SparqlClient from "sparql-http-client";
import { Archive } from "../lib/archive/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { PYTHON, pythonMissing } from "./_python.ts";
import { jsonDocument, type Shape, xmlDocument } from "./_sparql_shapes.ts";

const ROWS = 100_000;
const QUERY = "SELECT * WHERE { ?s ?p ?o }";
const SHAPES: Shape[] = ["six", "wide", "strings", "mixed"];
const FORMATS = ["json", "xml"] as const;
const TYPES = {
  json: "application/sparql-results+json",
  xml: "application/sparql-results+xml",
};

/** `http://host/api/bench/dl/{shape}-{format}/sparql`: the shape and format are in the path. */
function parts(endpoint: string) {
  const match = /^(.*)\/api\/bench\/dl\/(\w+)-(json|xml)\/sparql$/.exec(endpoint)!;
  return { base: match[1], db: `${match[2]}-${match[3]}`, format: match[3] as "json" | "xml" };
}

function withQuery(endpoint: string): URL {
  const address = new URL(endpoint);
  address.searchParams.set("query", QUERY);
  return address;
}

type Term = { value: string };

async function collect(stream: AsyncIterable<Record<string, Term>>): Promise<number> {
  const rows: Record<string, string>[] = [];
  for await (const bindings of stream) {
    const row: Record<string, string> = {};
    for (const name in bindings) row[name] = bindings[name].value;
    rows.push(row);
  }
  return aq.from(rows).numRows();
}

type XmlTerm = { type: string; value: string; datatype?: string; "xml:lang"?: string };

/**
 * The XML floor's reader: saxes events into the rows `JSON.parse` gives for the JSON
 * results (name to `{ type, value, datatype, xml:lang }`), kept. Keeping them is part
 * of the floor: the JSON floor keeps its parsed tree and tidepool keeps its table.
 */
function xmlBindings(text: string): Record<string, XmlTerm>[] {
  const rows: Record<string, XmlTerm>[] = [];
  let row: Record<string, XmlTerm> = {};
  let name = "";
  let term: XmlTerm | undefined;
  const parser = new SaxesParser({ position: true });
  parser.on("opentag", (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    if (tag.name === "result") row = {};
    else if (tag.name === "binding") name = attributes.name;
    else if (tag.name === "uri" || tag.name === "literal" || tag.name === "bnode") {
      term = { type: tag.name, value: "" };
      if (attributes.datatype !== undefined) term.datatype = attributes.datatype;
      if (attributes["xml:lang"] !== undefined) term["xml:lang"] = attributes["xml:lang"];
    }
  });
  parser.on("text", (chunk) => {
    if (term) term.value += chunk;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "result") rows.push(row);
    else if (term && tag.name === term.type) {
      row[name] = term;
      term = undefined;
    }
  });
  parser.write(text).close();
  return rows;
}

function contenders(format: "json" | "xml"): Contender[] {
  return [
    {
      name: "floor: fetch + parse",
      kind: "floor",
      note: format === "json"
        ? "JSON.parse"
        : "saxes events, each row kept as JSON.parse would give it",
      run: async (endpoint) => {
        const response = await fetch(withQuery(endpoint), { headers: { accept: TYPES[format] } });
        const text = await response.text();
        if (format === "json") return JSON.parse(text).results.bindings.length;
        return xmlBindings(text).length;
      },
    },
    {
      name: "tidepool Archive.sparql (typed table)",
      kind: "tidepool",
      note: "client defaults; { service } given",
      run: async (endpoint) => {
        const { base, db } = parts(endpoint);
        const archive = new Archive(base, { account: "bench", db });
        const table = await archive.sparql(QUERY, { service: "dl", method: "GET" });
        return typeof table === "boolean" ? 0 : table.numRows();
      },
    },
    {
      name: "fetch-sparql-endpoint + aq.from",
      kind: "alternative",
      run: async (endpoint) => {
        const fetcher = new SparqlEndpointFetcher({ method: "GET" });
        const stream = await fetcher.fetchBindings(endpoint, QUERY);
        return await collect(stream as AsyncIterable<Record<string, Term>>);
      },
    },
    {
      name: "sparql-http-client + aq.from",
      kind: "alternative",
      unavailable: () => format === "xml" ? "reads JSON results only" : undefined,
      run: async (endpoint) => {
        const client = new SparqlClient({ endpointUrl: endpoint });
        const stream = client.query.select(QUERY, { operation: "get" });
        return await collect(stream as AsyncIterable<Record<string, Term>>);
      },
    },
    {
      name: "SPARQLWrapper + pandas (whole process)",
      kind: "alternative",
      unavailable: pythonMissing,
      command: (endpoint) => [
        PYTHON,
        new URL("_sparqlwrapper.py", import.meta.url).pathname,
        endpoint,
        QUERY,
        format,
      ],
    },
  ];
}

// A child process runs one contender on one endpoint, whose path names the format.
const childFormat = Deno.args[0] === "--child" ? parts(Deno.args[2]).format : "json";
if (!(await runChild(contenders(childFormat)))) {
  const documents = new Map<string, string>();
  for (const shape of SHAPES) {
    documents.set(`${shape}-json`, jsonDocument(shape, ROWS));
    documents.set(`${shape}-xml`, xmlDocument(shape, ROWS));
  }
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    const match = /^\/api\/bench\/dl\/(\w+-(json|xml))\/sparql$/.exec(path);
    if (!match || ++requests > 10_000) return new Response("Not found", { status: 404 });
    return new Response(documents.get(match[1]), {
      headers: { "content-type": `${TYPES[match[2] as "json" | "xml"]}; charset=utf-8` },
    });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const shape of SHAPES) {
      for (const format of FORMATS) {
        const bytes = new TextEncoder().encode(documents.get(`${shape}-${format}`)!).length;
        await compare({
          title: `SPARQL ${shape} shape, ${format.toUpperCase()}`,
          work: `SELECT of ${ROWS.toLocaleString("en-US")} rows (${
            (bytes / 1024 / 1024).toFixed(0)
          } MiB) to a table`,
          file: import.meta.url,
          rounds: roundsArg(3),
          warmRuns: 1,
          url: `${url}/api/bench/dl/${shape}-${format}/sparql`,
          contenders: contenders(format),
          notes: [
            "Target: tidepool at most 1.25x the floor's process time and 1.1x its peak memory",
            "The SPARQLWrapper row is timed as a whole Python process; compare it with the process column",
          ],
        });
      }
    }
  } finally {
    await server.shutdown();
  }
}
