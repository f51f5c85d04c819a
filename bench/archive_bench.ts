/**
 * Archive SPARQL benchmark: a 100,000-row SELECT read into a typed table by
 * tidepool, against the floor of bare `fetch` + `JSON.parse` of the same
 * request, alternately in the same process, on the local sandbox.
 *
 * Run: deno run -A --frozen bench/archive_bench.ts
 */

import { Archive } from "../lib/archive/mod.ts";
import { startArchiveSandbox } from "../lib/sandbox/archive/mod.ts";
import { measure, report } from "./_measure.ts";

const ROWS = 100_000;
const QUERY = `SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT ${ROWS}`;

const sandbox = await startArchiveSandbox({ scale: 3 });
try {
  const archive = new Archive(sandbox.url, {
    account: "shinano",
    db: "letters",
    progress: false,
    maxResponseBytes: 1024 * 1024 * 1024,
  });
  const url = new URL(`${sandbox.url}/api/shinano/dl/letters/sparql`);
  url.searchParams.set("query", QUERY);
  let checked = false;
  const medians = await measure([
    {
      name: "fetch + JSON.parse (floor)",
      run: async () => {
        const response = await fetch(url, {
          headers: { accept: "application/sparql-results+json" },
        });
        const body = JSON.parse(await response.text());
        if (body.results.bindings.length !== ROWS) throw new Error("short answer");
      },
    },
    {
      name: "archive.sparql -> typed table",
      run: async () => {
        const table = await archive.sparql(QUERY, { format: "json", method: "GET" });
        if (table.numRows() !== ROWS) throw new Error(`got ${table.numRows()} rows`);
        checked = true;
      },
    },
  ], 5);
  if (!checked) throw new Error("the tidepool contender did not run");
  report("archive SPARQL SELECT", medians, ROWS, "fetch + JSON.parse (floor)");
  const ratio = medians["archive.sparql -> typed table"] / medians["fetch + JSON.parse (floor)"];
  console.log(`  ratio tidepool / floor: ${ratio.toFixed(2)}`);
} finally {
  await sandbox.close();
}
