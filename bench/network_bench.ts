/**
 * Reads over a slow network (issue 47): a gate in front of the loopback
 * sandbox holds every request for a round trip plus the server's time per
 * page, and counts the requests in flight as the server sees them. The
 * sandbox runs in a process of its own (bench/_network_servers.ts), so its
 * CPU does not queue behind the bench's. Each contender is a whole process:
 * tidepool at its default, at concurrency 4 and 8, and the one-at-a-time
 * loop a user writes. Every tidepool row is checked against the digest of
 * the one-at-a-time read (for the mirror, the digest of the folder the loop
 * wrote), and a row whose requests in flight passed its cap fails the
 * bench. A last row per read runs behind a gate that answers 503 with
 * Retry-After: 1 to every third request.
 *
 *   deno run -A --frozen bench/network_bench.ts [oai|subgraph|mirror] [rounds] [--storm-only|--no-storm] [--delay=150]
 */

import { XMLParser } from "fast-xml-parser";
import { GraphQLClient } from "graphql-request";
import { OaiPmh } from "../lib/archive/oai/mod.ts";
import { Subgraph } from "../lib/subgraph/mod.ts";
import { tableDigest } from "../lib/table/mod.ts";
import { loadAverage } from "./_compare.ts";
import { startNetworkGate } from "./_network_gate.ts";
import { NETWORK_SIZES, withServer } from "./_network_servers.ts";
import {
  mirrorContenders,
  type NetworkContender as Contender,
  referenceMirror,
  stormMirror,
} from "./_mirror_contenders.ts";

const { oaiRecords: OAI_RECORDS, orders: ORDERS, mirrorFiles: MIRROR_FILES } = NETWORK_SIZES;
/** A page of OAI-PMH or of a subgraph: a round trip plus the server's time for it (`--delay=MS`). */
const PAGE_DELAY_MS = Number(
  Deno.args.find((arg) => arg.startsWith("--delay="))?.slice("--delay=".length) ?? 150,
);
/** One resource of a mirror. */
const FILE_DELAY_MS = 50;
/** The order fields every subgraph contender asks for: the loop's selection. */
const FIELDS = ["createdAt", "consumer", "amount"] as const;

/**
 * The table's digest and the time it took: the bench's check, not the
 * contender's work, so it is taken off the process time (the loop builds
 * no table and pays none).
 */
function checked(table: Parameters<typeof tableDigest>[0]) {
  const started = performance.now();
  const { sha256 } = tableDigest(table);
  return { sha256, checkMs: performance.now() - started };
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
      return { rows: table.numRows(), ...checked(table) };
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
      return { rows: table.numRows(), ...checked(table) };
    },
  })),
];

const contenders = [...oaiContenders, ...subgraphContenders, ...mirrorContenders];
const skipPairs = Deno.args.includes("--storm-only");
const skipStorms = Deno.args.includes("--no-storm");

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
  if (which === "all" || which === "mirror") await benchMirror(rounds);
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
    ...JSON.parse(lines[lines.length - 1]) as {
      rows: number;
      sha256?: string;
      checkMs?: number;
      ms: number;
    },
    processMs: performance.now() - started,
  };
}

/**
 * Runs the contenders behind a gate, alternating their order round by round,
 * and prints the rows. Without a reference digest, the first contender's
 * (the loop's, run first in the first round) is the reference.
 */
async function pair(
  title: string,
  upstream: string,
  path: string,
  list: Contender[],
  reference: string | undefined,
  rounds: number,
  delayMs: number,
) {
  const gate = startNetworkGate(upstream, { delayMs });
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
        reference ??= result.sha256;
        if (result.sha256 && result.sha256 !== reference) {
          throw new Error(`${c.name}: digest ${result.sha256} is not the one-at-a-time read's`);
        }
        times.get(c.name)!.push(result.processMs - (result.checkMs ?? 0));
        if (round === 0) {
          seen.set(c.name, {
            rows: result.rows,
            flight: `${gate.inFlight.max} of ${c.cap}`,
            digest: !result.sha256 ? "(no table)" : c === list[0] ? "reference" : "same",
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
    `Delay ${delayMs} ms per request at the gate; the sandbox in its own process; ${rounds} round(s); load ${load} at the start, ${loadAverage()} at the end.\n`,
  );
  console.log(
    "| contender | process ms (less the digest) | loop / this | rows | most in flight at the server | digest |",
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
  reference: string | ((gated: string) => Promise<string>),
  delayMs: number,
) {
  if (skipStorms) return;
  const gate = startNetworkGate(upstream, {
    delayMs,
    unavailableEvery: 3,
    retryAfterSeconds: 1,
  });
  const load = loadAverage();
  try {
    const started = performance.now();
    const sha = await run(gate.url + path);
    const ms = performance.now() - started;
    const seen =
      `${gate.requests} requests, ${gate.refused} answered 503, most in flight ${gate.inFlight.max} of ${cap}, ${
        gate.early(100)
      } sent during a pause`;
    const maxInFlight = gate.inFlight.max;
    // A reference read through the same gate (documents that name its host) comes after.
    const expected = typeof reference === "string" ? reference : await reference(gate.url + path);
    const same = sha === expected ? "same" : "DIFFERENT";
    console.log(
      `\n${title}: ${seen}, digest ${same}, ${ms.toFixed(0)} ms (load ${load} to ${loadAverage()})`,
    );
    if (same === "DIFFERENT" || maxInFlight > cap) {
      throw new Error(`${title}: the storm row failed`);
    }
  } finally {
    await gate.close();
  }
}

async function benchOai(rounds: number) {
  await withServer("oai", async ({ url, path }) => {
    const one = await new OaiPmh(url + path, { progress: false, concurrency: 1 }).harvest();
    const reference = tableDigest(one).sha256;
    if (!skipPairs) {
      await pair(
        `OAI-PMH: oai_dc harvest, ${OAI_RECORDS.toLocaleString("en-US")} records in pages of 100`,
        url,
        path,
        oaiContenders,
        reference,
        rounds,
        PAGE_DELAY_MS,
      );
    }
    await storm(
      "OAI-PMH, concurrency 4, 503 + Retry-After: 1 to every third request",
      url,
      path,
      async (gated) =>
        tableDigest(
          await new OaiPmh(gated, {
            progress: false,
            concurrency: 4,
            retry: { maxElapsedMs: 600_000 },
          }).harvest(),
        ).sha256,
      4,
      reference,
      PAGE_DELAY_MS,
    );
  });
}

async function benchSubgraph(rounds: number) {
  await withServer("subgraph", async ({ url, path }) => {
    const one = await new Subgraph(url + path, { progress: false, concurrency: 1 })
      .orders({ fields: FIELDS });
    const reference = tableDigest(one).sha256;
    if (!skipPairs) {
      await pair(
        `Subgraph: every order, ${ORDERS.toLocaleString("en-US")} in pages of 1,000`,
        url,
        path,
        subgraphContenders,
        reference,
        rounds,
        PAGE_DELAY_MS,
      );
    }
    const full = await new Subgraph(url + path, { progress: false, concurrency: 1 }).orders();
    await storm(
      "Subgraph orders, concurrency 8, 503 + Retry-After: 1 to every third request",
      url,
      path,
      async (gated) =>
        tableDigest(
          await new Subgraph(gated, {
            progress: false,
            concurrency: 8,
            retry: { maxElapsedMs: 600_000 },
          }).orders(),
        ).sha256,
      8,
      tableDigest(full).sha256,
      PAGE_DELAY_MS,
    );
  });
}

async function benchMirror(rounds: number) {
  await withServer("mirror", async ({ url }) => {
    // The documents name the host the client asked (the gate's), so the reference is the
    // folder the loop writes through the same gate: the pair's first contender.
    if (!skipPairs) {
      await pair(
        `ResourceSync mirror: ${MIRROR_FILES} resources, a file each`,
        url,
        "",
        mirrorContenders,
        undefined,
        rounds,
        FILE_DELAY_MS,
      );
    }
    await storm(
      "ResourceSync mirror, concurrency 8, 503 + Retry-After: 1 to every third request",
      url,
      "",
      async (gated) => (await stormMirror(gated)).sha256,
      8,
      async (gated) => (await referenceMirror(gated)).sha256,
      FILE_DELAY_MS,
    );
  });
}

function median(values: number[]): number {
  return values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
