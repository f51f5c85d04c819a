/**
 * The reads of the regression guards, each with its floor (the same
 * requests with bare `fetch` and a parser, results kept), against the
 * servers of `_guard_servers.ts`. The clients are passed in, so that
 * `deno task guard` can run the same read with an earlier build's.
 *
 * @module
 */

import { XMLParser } from "fast-xml-parser";
import { SaxesParser } from "saxes";
import type { ExpressionSearch } from "../../lib/expressions/mod.ts";
import type { Archive } from "../../lib/archive/mod.ts";
import type { OaiPmh } from "../../lib/archive/oai/mod.ts";
import type { Subgraph } from "../../lib/subgraph/mod.ts";
import { withChildServer } from "../_child_runs.ts";

/** The guard servers' addresses, as `_guard_servers.ts` prints them. */
export interface GuardServers {
  expressions: string;
  oai: string;
  subgraph: string;
  sparql: string;
}

/** The client classes a read uses: this build's, or an earlier build's. */
export interface GuardClients {
  ExpressionSearch: typeof ExpressionSearch;
  Archive: typeof Archive;
  OaiPmh: typeof OaiPmh;
  Subgraph: typeof Subgraph;
}

/** One read of the guard: the floor and tidepool, each returning the rows it kept. */
export interface GuardRead {
  floor: () => Promise<number>;
  tidepool: () => Promise<number>;
}

/** The reads by name, in the order the guards run them. */
export const GUARD_READS = [
  ["expression searchAll, one page at a time", "expressions"],
  ["SPARQL SELECT, json", "sparql json"],
  ["SPARQL SELECT, xml", "sparql xml"],
  ["OAI-PMH harvest, oai_dc", "oai harvest"],
  ["subgraph orders()", "subgraph orders"],
] as const;

/** A read's short name. */
export type ReadName = typeof GUARD_READS[number][1];

/**
 * Runs `run` with the guard's servers started in another process (so that
 * they answer while this process works, as a real service does).
 *
 * @param run Gets the servers' addresses.
 */
export function withGuardServers(run: (servers: GuardServers) => Promise<void>): Promise<void> {
  return withChildServer(
    new URL("./_guard_servers.ts", import.meta.url),
    (line) => run(JSON.parse(line)),
  );
}

const client = { progress: false, cache: false } as const;
const QUERY = "SELECT * WHERE { ?s ?p ?o }";

/**
 * The read named `name` with `clients`, against `servers`.
 *
 * @param name The read.
 * @param servers The guard's servers.
 * @param clients The client classes to read with.
 * @returns Its floor and its read.
 */
export function readOf(
  name: ReadName,
  servers: GuardServers,
  clients: GuardClients,
): Promise<GuardRead> | GuardRead {
  switch (name) {
    case "expressions":
      return expressionsRead(servers, clients);
    case "sparql json":
      return sparqlRead(servers, clients, "json");
    case "sparql xml":
      return sparqlRead(servers, clients, "xml");
    case "oai harvest":
      return oaiRead(servers, clients);
    case "subgraph orders":
      return subgraphRead(servers, clients);
  }
}

function expressionsRead(servers: GuardServers, clients: GuardClients): GuardRead {
  const page = async (offset: number) =>
    JSON.parse(
      await (await fetch(`${servers.expressions}/api/expressions?limit=100&offset=${offset}`))
        .text(),
    );
  return {
    floor: async () => {
      const kept: unknown[][] = [];
      let total = Infinity;
      for (let offset = 0; offset < total; offset += 100) {
        const body = await page(offset);
        total = body.total;
        kept.push(body.hits);
      }
      return kept.reduce((n, hits) => n + hits.length, 0);
    },
    tidepool: async () =>
      (await new clients.ExpressionSearch(servers.expressions, {
        ...client,
        minIntervalMs: 0,
        concurrency: 1,
        pageSize: 100,
      }).searchAll()).numRows(),
  };
}

function sparqlRead(
  servers: GuardServers,
  clients: GuardClients,
  format: "json" | "xml",
): GuardRead {
  const endpoint = `${servers.sparql}/api/guard/dl/${format}/sparql`;
  return {
    floor: async () => {
      const url = new URL(endpoint);
      url.searchParams.set("query", QUERY);
      const text = await (await fetch(url, {
        headers: { accept: `application/sparql-results+${format}` },
      })).text();
      if (format === "json") return JSON.parse(text).results.bindings.length;
      let rows = 0;
      const parser = new SaxesParser({ position: true });
      parser.on("opentag", (tag) => {
        if (tag.name === "result") rows++;
      });
      parser.on("text", () => {});
      parser.write(text).close();
      return rows;
    },
    tidepool: async () => {
      const archive = new clients.Archive(servers.sparql, {
        ...client,
        account: "guard",
        db: format,
      });
      const table = await archive.sparql(QUERY, { service: "dl", method: "GET", format });
      return typeof table === "boolean" ? 0 : table.numRows();
    },
  };
}

function oaiRead(servers: GuardServers, clients: GuardClients): GuardRead {
  return {
    floor: async () => {
      const parser = new XMLParser({ ignoreAttributes: false });
      const kept: unknown[] = [];
      let url = `${servers.oai}?verb=ListRecords&metadataPrefix=oai_dc`;
      for (;;) {
        const list = parser.parse(await (await fetch(url)).text())["OAI-PMH"].ListRecords;
        for (const record of [list.record].flat()) kept.push(record);
        const token = list.resumptionToken?.["#text"];
        if (!token) break;
        url = `${servers.oai}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
      }
      return kept.length;
    },
    tidepool: async () =>
      (await new clients.OaiPmh(servers.oai, client).harvest({ metadataPrefix: "oai_dc" }))
        .numRows(),
  };
}

/** The floor sends tidepool's own requests, recorded once. */
async function subgraphRead(servers: GuardServers, clients: GuardClients): Promise<GuardRead> {
  const bodies: string[] = [];
  await new clients.Subgraph(servers.subgraph, {
    ...client,
    fetch: (input, init) => {
      if (typeof init?.body === "string") bodies.push(init.body);
      return fetch(input, init);
    },
  }).orders();
  return {
    floor: async () => {
      let rows = 0;
      for (const body of bodies) {
        const response = await fetch(servers.subgraph, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        rows += (JSON.parse(await response.text()).data.rows as unknown[]).length;
      }
      return rows;
    },
    tidepool: async () => (await new clients.Subgraph(servers.subgraph, client).orders()).numRows(),
  };
}
