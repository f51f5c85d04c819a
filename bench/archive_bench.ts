/**
 * SPARQL SELECT, 100,000 rows of four columns, to a table: `Archive.sparql`
 * (typed table) against fetch-sparql-endpoint and sparql-http-client
 * collecting rows into `aq.from`, Debian's python3-sparqlwrapper +
 * python3-pandas into a DataFrame (whole process timed; "not installed"
 * where missing), and the floor of bare `fetch` + `JSON.parse` of the same
 * request. Each run is its own process.
 *
 * Run: deno run -A --frozen bench/archive_bench.ts [rounds]
 */

import * as aq from "arquero";
import { SparqlEndpointFetcher } from "fetch-sparql-endpoint";
import SparqlClient from "sparql-http-client";
import { Archive } from "../lib/archive/mod.ts";
import { startArchiveSandbox } from "../lib/sandbox/archive/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { PYTHON, pythonMissing } from "./_python.ts";

const ROWS = 100_000;
const QUERY = `SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT ${ROWS}`;
const endpoint = (url: string) => `${url}/api/shinano/dl/letters/sparql`;

type Term = { value: string };

const contenders: Contender[] = [
  {
    name: "floor: fetch + JSON.parse",
    kind: "floor",
    run: async (url) => {
      const address = new URL(endpoint(url));
      address.searchParams.set("query", QUERY);
      const response = await fetch(address, {
        headers: { accept: "application/sparql-results+json" },
      });
      return JSON.parse(await response.text()).results.bindings.length;
    },
  },
  {
    name: "tidepool Archive.sparql (typed table)",
    kind: "tidepool",
    run: async (url) => {
      const archive = new Archive(url, {
        account: "shinano",
        db: "letters",
        progress: false,
        maxResponseBytes: 1024 * 1024 * 1024,
      });
      return (await archive.sparql(QUERY, { format: "json", method: "GET" })).numRows();
    },
  },
  {
    name: "fetch-sparql-endpoint + aq.from",
    kind: "alternative",
    run: async (url) => {
      const fetcher = new SparqlEndpointFetcher({ method: "GET" });
      const stream = await fetcher.fetchBindings(endpoint(url), QUERY);
      const rows: Record<string, string>[] = [];
      for await (const bindings of stream as AsyncIterable<Record<string, Term>>) {
        const row: Record<string, string> = {};
        for (const name in bindings) row[name] = bindings[name].value;
        rows.push(row);
      }
      return aq.from(rows).numRows();
    },
  },
  {
    name: "sparql-http-client + aq.from",
    kind: "alternative",
    run: async (url) => {
      const client = new SparqlClient({ endpointUrl: endpoint(url) });
      const rows: Record<string, string>[] = [];
      const stream = client.query.select(QUERY, { operation: "get" });
      for await (const bindings of stream as AsyncIterable<Record<string, Term>>) {
        const row: Record<string, string> = {};
        for (const name in bindings) row[name] = bindings[name].value;
        rows.push(row);
      }
      return aq.from(rows).numRows();
    },
  },
  {
    name: "SPARQLWrapper + pandas (whole process)",
    kind: "alternative",
    unavailable: pythonMissing,
    command: (
      url,
    ) => [PYTHON, new URL("_sparqlwrapper.py", import.meta.url).pathname, endpoint(url), QUERY],
  },
];

if (!(await runChild(contenders))) {
  const sandbox = await startArchiveSandbox({ scale: 3 });
  try {
    await compare({
      title: "Archive SPARQL",
      work: `SELECT of ${ROWS.toLocaleString("en-US")} rows, 4 columns, to a table`,
      file: import.meta.url,
      rounds: roundsArg(3),
      warmRuns: 1,
      url: sandbox.url,
      contenders,
      notes: [
        "The SPARQLWrapper row is timed as a whole Python process (start, import, request, DataFrame); compare it with the process column",
      ],
    });
  } finally {
    await sandbox.close();
  }
}
