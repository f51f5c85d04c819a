/**
 * Every order, 100,000 orders of the sandbox subgraph: `Subgraph.orders()`
 * against `graphql-request` paging with `skip` (what most scripts do; The
 * Graph refuses skip past 5,000, so it stops at 6,000 rows) and with an
 * `id_gt` loop, both collected into `aq.from`, and the floor (the exact
 * requests tidepool sends, replayed with bare `fetch` + `JSON.parse`, no
 * table). All of them ask for the same fields: the alternatives' selection
 * is taken from tidepool's recorded request, so the rows compare the same
 * work. Each run is its own process.
 *
 * Run: deno run -A --frozen bench/subgraph_bench.ts [rounds]
 */

import * as aq from "arquero";
import { GraphQLClient } from "graphql-request";
import { serveSubgraph } from "../lib/sandbox/subgraph/mod.ts";
import { Subgraph } from "../lib/subgraph/mod.ts";
import { compare, type Contender, roundsArg, runChild } from "./_compare.ts";
import { orderSelection } from "./_order_selection.ts";

const SIZE = 100_000;
const BODIES = "TIDEPOOL_BENCH_SUBGRAPH_BODIES";

/** The recorded request bodies of tidepool's orders(), written by the parent run. */
function recordedBodies(): string[] {
  return JSON.parse(Deno.readTextFileSync(Deno.env.get(BODIES)!));
}

/** The fields tidepool asks of each order, from its first recorded request. */
function recordedSelection(): string {
  return orderSelection((JSON.parse(recordedBodies()[0]) as { query: string }).query);
}

interface Order {
  id: string;
}

/** Sends tidepool's recorded requests with bare `fetch` and hands on each page's rows. */
async function replay(url: string, onRows: (rows: unknown[]) => void): Promise<void> {
  for (const body of recordedBodies()) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    onRows(JSON.parse(await response.text()).data.rows as unknown[]);
  }
}

const contenders: Contender[] = [
  {
    name: "floor: same requests, fetch + JSON.parse, rows kept",
    kind: "floor",
    note: "keeps every page's rows, as the table does (the expression floor keeps its hits too)",
    run: async (url) => {
      const kept: unknown[][] = [];
      await replay(url, (rows) => kept.push(rows));
      return kept.reduce((n, rows) => n + rows.length, 0);
    },
  },
  {
    name: "same requests, fetch + JSON.parse, nothing kept",
    kind: "part",
    note: "the floor of earlier runs: it leaves its rows to the collector",
    run: async (url) => {
      let n = 0;
      await replay(url, (rows) => n += rows.length);
      return n;
    },
  },
  {
    name: "tidepool orders() (typed table)",
    kind: "tidepool",
    run: async (url) => (await new Subgraph(url, { progress: false }).orders()).numRows(),
  },
  {
    name: "graphql-request, id_gt loop + aq.from",
    kind: "alternative",
    run: async (url) => {
      const client = new GraphQLClient(url);
      const selection = recordedSelection();
      const rows: Order[] = [];
      for (let last = "";;) {
        const data = await client.request<{ orders: Order[] }>(
          `query($last: ID!) { orders(first: 1000, orderBy: id, where: { id_gt: $last }) ${selection} }`,
          { last },
        );
        rows.push(...data.orders);
        if (data.orders.length < 1000) break;
        last = data.orders[data.orders.length - 1].id;
      }
      return aq.from(rows).numRows();
    },
  },
  {
    name: "graphql-request, skip paging + aq.from",
    kind: "alternative",
    note: "stops at skip 5,000 (the subgraph refuses deeper skips), so it reads 6,000 rows",
    run: async (url) => {
      const client = new GraphQLClient(url);
      const selection = recordedSelection();
      const rows: Order[] = [];
      for (let skip = 0;; skip += 1000) {
        let data: { orders: Order[] };
        try {
          data = await client.request(
            `query($skip: Int!) { orders(first: 1000, skip: $skip, orderBy: createdTimestamp) ${selection} }`,
            { skip },
          );
        } catch {
          break; // the subgraph's skip limit: what such a script ends with
        }
        rows.push(...data.orders);
        if (data.orders.length < 1000) break;
      }
      return aq.from(rows).numRows();
    },
  },
];

if (!(await runChild(contenders))) {
  const sandbox = serveSubgraph({ orders: SIZE });
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    // Record the exact requests tidepool sends, for the floor to replay.
    const bodies: string[] = [];
    const recorder = new Subgraph(sandbox.endpoint, {
      progress: false,
      fetch: (input, init) => {
        if (typeof init?.body === "string") bodies.push(init.body);
        return fetch(input, init);
      },
    });
    const rows = (await recorder.orders()).numRows();
    if (rows !== SIZE) throw new Error(`orders() read ${rows} of ${SIZE} rows`);
    await Deno.writeTextFile(file, JSON.stringify(bodies));
    Deno.env.set(BODIES, file);
    await compare({
      title: "Ocean subgraph",
      work: `every order, ${SIZE.toLocaleString("en-US")} orders, ${bodies.length} requests`,
      file: import.meta.url,
      rounds: roundsArg(3),
      warmRuns: 1,
      url: sandbox.endpoint,
      contenders,
    });
  } finally {
    await Deno.remove(file);
    await sandbox.close();
  }
}
