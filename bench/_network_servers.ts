/**
 * The sandbox of one row of bench/network_bench.ts, in its own process, so
 * that the server's CPU does not queue behind the bench's (the gate, the
 * digests) and the contenders' work: `oai` (20,000 records in pages of
 * 100), `subgraph` (100,000 orders) or `mirror` (a ResourceSync source of
 * 500 resources whose list gives each length and MD5). Prints `{ url, path }`
 * as one JSON line, then serves until stdin closes.
 *
 *   deno run -A --frozen bench/_network_servers.ts oai|subgraph|mirror
 */

import { seedOaiRecords, startOaiSandbox } from "../lib/sandbox/archive/oai/mod.ts";
import { startResourceSyncSandbox } from "../lib/sandbox/archive/resourcesync/mod.ts";
import { serveSubgraph } from "../lib/sandbox/subgraph/mod.ts";

/** The sizes of the rows, as issue 47 states them. */
export const NETWORK_SIZES = { oaiRecords: 20_000, orders: 100_000, mirrorFiles: 500 } as const;

/** The site every archive row reads. */
export const NETWORK_SITE = "acme/letters";

/** Runs `body` while a row's sandbox serves from its own process; stops it after. */
export async function withServer<T>(
  kind: "oai" | "subgraph" | "mirror",
  body: (server: { url: string; path: string }) => Promise<T>,
): Promise<T> {
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", new URL(import.meta.url).pathname, kind],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const lines = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`The ${kind} sandbox ended before it printed its address`);
      text += value;
    }
    await lines.cancel(); // the server prints nothing more
    return await body(JSON.parse(text.slice(0, text.indexOf("\n"))));
  } finally {
    await server.stdin.close();
    await server.status;
  }
}

if (import.meta.main) {
  const kind = Deno.args[0];
  let server: { url: string; close(): Promise<void> };
  let path: string;
  if (kind === "oai") {
    server = startOaiSandbox({
      sites: {
        [NETWORK_SITE]: {
          records: seedOaiRecords({ count: NETWORK_SIZES.oaiRecords, seed: 3 }),
        },
      },
      pageSize: 100,
    });
    path = `/${NETWORK_SITE}/api/oai`;
  } else if (kind === "subgraph") {
    const subgraph = serveSubgraph({ orders: NETWORK_SIZES.orders });
    // The sandbox sorts a field's index on its first query (about 0.2 s for 100,000 orders);
    // graph-node's database has its indexes before any query, so every contender, and a
    // profile's single run, meets them built.
    for (const field of ["id", "createdTimestamp"]) {
      const response = await fetch(subgraph.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: `{ orders(first: 1, orderBy: ${field}) { id } }` }),
      });
      if (!response.ok) throw new Error(`The subgraph sandbox answered ${response.status}`);
      await response.body?.cancel();
    }
    server = subgraph;
    path = new URL(subgraph.endpoint).pathname;
  } else if (kind === "mirror") {
    // No record deleted, so the 500 listed are 500 files.
    const records = seedOaiRecords({ count: NETWORK_SIZES.mirrorFiles, seed: 3, deletedShare: 0 });
    server = startResourceSyncSandbox({
      sites: { [NETWORK_SITE]: records },
      metadata: ["length", "md5"],
    });
    path = "";
  } else {
    throw new Error(`Unknown row ${kind}: give oai, subgraph or mirror`);
  }
  console.log(JSON.stringify({ url: server.url, path }));
  for await (const _ of Deno.stdin.readable) { /* serve until the bench closes stdin */ }
  await server.close();
}
