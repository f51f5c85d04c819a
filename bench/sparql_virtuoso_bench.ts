/**
 * Reads 50,000 rows from a stock Virtuoso 7 (Debian's defaults: 10,000 rows
 * an answer, sorted windows to 10,000): tidepool's `SparqlEndpoint.all`
 * (a COUNT, then five windows outside the ordered query, typed columns)
 * against `curl` fetching the same five windows plus `JSON.parse` of each,
 * the floor. Paired A B, then B A, round by round, so load that comes and
 * goes weighs on both sides; the load average is printed at start and end.
 *
 * Run: deno run -A --frozen bench/sparql_virtuoso_bench.ts [rounds]
 *
 * @module
 */

import { join } from "node:path";
import { SparqlEndpoint } from "../mod.ts";
import { startVirtuoso } from "../tests/_real_servers.ts";

const ROWS = 50_000;
const PAGE = 10_000;
const EX = "http://example.org/";
const QUERY = `SELECT ?s ?n ?label WHERE { ?s <${EX}n> ?n ; <${EX}label> ?label }`;
const rounds = Number(Deno.args[0] ?? 7);

const load = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** The floor: curl for each window the read needs, then JSON.parse of its body. */
async function floor(endpoint: string): Promise<number> {
  let rows = 0;
  for (let offset = 0; offset < ROWS; offset += PAGE) {
    const window =
      `SELECT ?s ?n ?label WHERE { { ${QUERY} ORDER BY ?s ?n ?label } } OFFSET ${offset} LIMIT ${PAGE}`;
    const { stdout, success } = await new Deno.Command("curl", {
      args: [
        "-sf",
        "-G",
        endpoint,
        "--data-urlencode",
        `query=${window}`,
        "-H",
        "accept: application/sparql-results+json",
      ],
      stdout: "piped",
    }).output();
    if (!success) throw new Error("curl failed");
    rows += JSON.parse(new TextDecoder().decode(stdout)).results.bindings.length;
  }
  return rows;
}

async function tidepool(endpoint: string): Promise<number> {
  const client = new SparqlEndpoint(endpoint, { progress: false, cache: false });
  return (await client.all(QUERY)).numRows();
}

const dir = await Deno.makeTempDir();
try {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const s = `<${EX}item/${String(i).padStart(6, "0")}>`;
    lines.push(`${s} <${EX}n> "${i}"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    lines.push(`${s} <${EX}label> "item ${i}" .`);
  }
  await Deno.writeTextFile(join(dir, "data.nt"), lines.join("\n") + "\n");
  await using server = await startVirtuoso(join(dir, "data.nt"));
  const endpoint = `${server.url}/sparql`;
  // One of each first: the server's caches warm up on neither side's clock.
  if (await tidepool(endpoint) !== ROWS || await floor(endpoint) !== ROWS) {
    throw new Error("a side did not read every row");
  }
  const loadStart = await load();
  const times: Record<"tidepool" | "floor", number[]> = { tidepool: [], floor: [] };
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["tidepool", "floor"] as const : ["floor", "tidepool"] as const;
    const took: Record<string, number> = {};
    for (const side of order) {
      const start = performance.now();
      const rows = side === "tidepool" ? await tidepool(endpoint) : await floor(endpoint);
      took[side] = performance.now() - start;
      if (rows !== ROWS) throw new Error(`${side} read ${rows} rows`);
      times[side].push(took[side]);
    }
    ratios.push(took.tidepool / took.floor);
  }
  const loadEnd = await load();
  console.log(`Virtuoso ${ROWS} rows, ${rounds} paired rounds, load ${loadStart} -> ${loadEnd}`);
  console.log(`tidepool SparqlEndpoint.all  median ${median(times.tidepool).toFixed(0)} ms`);
  console.log(`curl + JSON.parse (floor)    median ${median(times.floor).toFixed(0)} ms`);
  console.log(`paired ratio tidepool/floor  median ${median(ratios).toFixed(2)}x`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
