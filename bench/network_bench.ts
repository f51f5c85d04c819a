/**
 * Reads over a slow network (issue 47): a gate in front of the loopback
 * sandbox holds every request for a round trip plus the server's time per
 * page, and counts the requests in flight as the server sees them. Each
 * contender is a whole process: tidepool at its default, at concurrency 4
 * and 8, and the one-page-at-a-time loop a user writes. Every tidepool row
 * is checked against the digest of the one-at-a-time read, and a row whose
 * requests in flight passed its cap fails the bench. A last row per read
 * runs behind a gate that answers 503 with Retry-After: 1 to every third
 * request.
 *
 *   deno run -A --frozen bench/network_bench.ts [oai|subgraph] [rounds]
 */

import { XMLParser } from "fast-xml-parser";
import { GraphQLClient } from "graphql-request";
import { OaiPmh } from "../lib/archive/oai/mod.ts";
import { seedOaiRecords, startOaiSandbox } from "../lib/sandbox/archive/oai/mod.ts";
import { serveSubgraph } from "../lib/sandbox/subgraph/mod.ts";
import { Subgraph } from "../lib/subgraph/mod.ts";
import { tableDigest } from "../lib/table/mod.ts";
import { loadAverage } from "./_compare.ts";
import { startNetworkGate } from "./_network_gate.ts";

const OAI_RECORDS = 20_000;
const ORDERS = 100_000;
const DELAY_MS = 150;
/** The order fields every subgraph contender asks for: the loop's selection. */
const FIELDS = ["createdAt", "consumer", "amount"] as const;

interface Contender {
  name: string;
  /** The most requests it may have in flight; undefined for the user's loop (one). */
  cap: number;
  run(url: string): Promise<{ rows: number; sha256?: string }>;
}

const oaiContenders: Contender[] = [
  {
    name: "one-page loop: fetch + fast-xml-parser",
    cap: 1,
    run: async (endpoint) => {
      const parser = new XMLParser({ ignoreAttributes: false });
      let rows = 0;
      let url = `${endpoint}?verb=ListRecords&metadataPrefix=oai_dc`;
      for (;;) {
        const list = parser.parse(await (await fetch(url)).text())["OAI-PMH"].ListRecords;
        rows += Array.isArray(list.record) ? list.record.length : 1;
        const token = list.resumptionToken?.["#text"];
        if (!token) break;
        url = `${endpoint}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
      }
      return { rows };
    },
  },
  ...[undefined, 4, 8].map((concurrency) => ({
    name: `tidepool harvest(), ${
      concurrency ? `concurrency ${concurrency}` : "default (one list)"
    }`,
    cap: concurrency ?? 2,
    run: async (endpoint: string) => {
      const table = await new OaiPmh(endpoint, { progress: false, concurrency }).harvest();
      return { rows: table.numRows(), sha256: tableDigest(table).sha256 };
    },
  })),
];

const subgraphContenders: Contender[] = [
  {
    name: "graphql-request, id_gt loop",
    cap: 1,
    run: async (url) => {
      const client = new GraphQLClient(url);
      let rows = 0;
      for (let last = "";;) {
        const data = await client.request<{ orders: { id: string }[] }>(
          `query($last: ID!) { orders(first: 1000, orderBy: id, where: { id_gt: $last }) { id createdTimestamp consumer { id } amount } }`,
          { last },
        );
        rows += data.orders.length;
        if (data.orders.length < 1000) break;
        last = data.orders[data.orders.length - 1].id;
      }
      return { rows };
    },
  },
  ...[undefined, 4, 8].map((concurrency) => ({
    name: `tidepool orders(), ${concurrency ? `concurrency ${concurrency}` : "default (4)"}`,
    cap: concurrency ?? 4,
    run: async (url: string) => {
      const table = await new Subgraph(url, { progress: false, concurrency }).orders({
        fields: FIELDS,
      });
      return { rows: table.numRows(), sha256: tableDigest(table).sha256 };
    },
  })),
];

const contenders = [...oaiContenders, ...subgraphContenders];

if (Deno.args[0] === "--child") {
  const contender = contenders.find((c) => c.name === Deno.args[1])!;
  const started = performance.now();
  const result = await contender.run(Deno.args[2]);
  console.log(JSON.stringify({ ...result, ms: performance.now() - started }));
} else {
  const which = Deno.args[0] ?? "all";
  const rounds = Number(Deno.args[1] ?? 1);
  if (which === "all" || which === "oai") await benchOai(rounds);
  if (which === "all" || which === "subgraph") await benchSubgraph(rounds);
}

async function child(name: string, url: string) {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", new URL(import.meta.url).pathname, "--child", name, url],
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`${name} failed`);
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
  return {
    ...JSON.parse(lines[lines.length - 1]) as { rows: number; sha256?: string; ms: number },
    processMs: performance.now() - started,
  };
}

/** Runs the contenders behind a gate, alternating their order round by round, and prints the rows. */
async function pair(
  title: string,
  upstream: string,
  path: string,
  list: Contender[],
  reference: string,
  rounds: number,
) {
  const gate = startNetworkGate(upstream, { delayMs: DELAY_MS });
  const times = new Map<string, number[]>(list.map((c) => [c.name, []]));
  const load = loadAverage();
  const seen = new Map<string, { rows: number; flight: string; digest: string }>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 ? [...list].reverse() : list) {
        gate.inFlight.max = 0;
        const result = await child(c.name, gate.url + path);
        if (gate.inFlight.max > c.cap) {
          throw new Error(`${c.name}: ${gate.inFlight.max} requests in flight, cap ${c.cap}`);
        }
        if (result.sha256 && result.sha256 !== reference) {
          throw new Error(`${c.name}: digest ${result.sha256} is not the one-at-a-time read's`);
        }
        times.get(c.name)!.push(result.processMs);
        if (round === 0) {
          seen.set(c.name, {
            rows: result.rows,
            flight: `${gate.inFlight.max} of ${c.cap}`,
            digest: result.sha256 ? "same" : "(no table)",
          });
        }
      }
    }
  } finally {
    await gate.close();
  }
  const loop = median(times.get(list[0].name)!);
  console.log(`\n## ${title}\n`);
  console.log(
    `Delay ${DELAY_MS} ms per request at the gate; ${rounds} round(s); load ${load} at the start, ${loadAverage()} at the end.\n`,
  );
  console.log(
    "| contender | process ms | loop / this | rows | most in flight at the server | digest |",
  );
  console.log("|---|---:|---:|---:|---|---|");
  for (const c of list) {
    const ms = median(times.get(c.name)!);
    const { rows, flight, digest } = seen.get(c.name)!;
    console.log(
      `| ${c.name} | ${ms.toFixed(0)} | ${
        (loop / ms).toFixed(2)
      } | ${rows} | ${flight} | ${digest} |`,
    );
  }
}

async function storm(
  title: string,
  upstream: string,
  path: string,
  run: (url: string) => Promise<string>,
  cap: number,
  reference: string,
) {
  const gate = startNetworkGate(upstream, {
    delayMs: DELAY_MS,
    unavailableEvery: 3,
    retryAfterSeconds: 1,
  });
  try {
    const started = performance.now();
    const sha = await run(gate.url + path);
    const ms = performance.now() - started;
    const ok = sha === reference && gate.inFlight.max <= cap;
    console.log(
      `\n${title}: ${gate.requests} requests, ${gate.refused} answered 503, most in flight ${gate.inFlight.max} of ${cap}, digest ${
        sha === reference ? "same" : "DIFFERENT"
      }, ${ms.toFixed(0)} ms`,
    );
    if (!ok) throw new Error(`${title}: the storm row failed`);
  } finally {
    await gate.close();
  }
}

async function benchOai(rounds: number) {
  const site = "acme/letters";
  const sandbox = startOaiSandbox({
    sites: { [site]: { records: seedOaiRecords({ count: OAI_RECORDS, seed: 3 }) } },
    pageSize: 100,
  });
  try {
    const path = `/${site}/api/oai`;
    const one = await new OaiPmh(sandbox.url + path, { progress: false, concurrency: 1 }).harvest();
    const reference = tableDigest(one).sha256;
    if (!Deno.args.includes("--storm-only")) {
      await pair(
        `OAI-PMH: oai_dc harvest, ${OAI_RECORDS.toLocaleString("en-US")} records in pages of 100`,
        sandbox.url,
        path,
        oaiContenders,
        reference,
        rounds,
      );
    }
    await storm(
      "OAI-PMH, concurrency 4, 503 + Retry-After: 1 to every third request",
      sandbox.url,
      path,
      async (url) =>
        tableDigest(
          await new OaiPmh(url, {
            progress: false,
            concurrency: 4,
            retry: { retries: 8, maxElapsedMs: 600_000 },
          }).harvest(),
        ).sha256,
      4,
      reference,
    );
  } finally {
    await sandbox.close();
  }
}

async function benchSubgraph(rounds: number) {
  const sandbox = serveSubgraph({ orders: ORDERS });
  try {
    const path = new URL(sandbox.endpoint).pathname;
    const one = await new Subgraph(sandbox.endpoint, { progress: false, concurrency: 1 })
      .orders({ fields: FIELDS });
    const reference = tableDigest(one).sha256;
    await pair(
      `Subgraph: every order, ${ORDERS.toLocaleString("en-US")} in pages of 1,000`,
      sandbox.url,
      path,
      subgraphContenders,
      reference,
      rounds,
    );
    await storm(
      "Subgraph orders, concurrency 8, 503 + Retry-After: 1 to every third request",
      sandbox.url,
      path,
      async (url) =>
        tableDigest(
          await new Subgraph(url, {
            progress: false,
            concurrency: 8,
            retry: { retries: 8, maxElapsedMs: 600_000 },
          }).orders(),
        ).sha256,
      8,
      reference,
    );
  } finally {
    await sandbox.close();
  }
}

function median(values: number[]): number {
  return values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
