/**
 * OAI-PMH harvest throughput: a 100,000-record `oai_dc` harvest from the
 * loopback sandbox, tidepool's table form and streaming form against the
 * floor of bare `fetch` + fast-xml-parser over the same pages. Each run is
 * a subprocess, so its peak memory (RSS, sampled every 10 ms) is its own;
 * contenders alternate, and medians are printed.
 *
 *   deno run -A --frozen bench/oai_bench.ts [rounds]
 */

import { XMLParser } from "fast-xml-parser";
import { OaiPmh } from "../lib/archive/oai/mod.ts";
import { startOaiSandbox } from "../lib/sandbox/archive/oai/mod.ts";
import { median, record, type Summary } from "./_compare.ts";

const CONTENDERS = [
  "floor: fetch + fast-xml-parser",
  "tidepool harvest() table",
  "tidepool harvestRecords() stream",
  "tidepool harvestRecords() stream, first 10,000",
  // The stream's peak RSS grows with the run only because V8 collects lazily:
  // with the old space capped the whole 100,000 still fit, at the 10,000 peak.
  "tidepool harvestRecords() stream, V8 old space capped at 48 MiB",
];

interface RunResult {
  ms: number;
  rows: number;
  startRss: number;
  peakRss: number;
}

async function runOne(contender: string, endpoint: string): Promise<RunResult> {
  let peakRss = Deno.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  }, 10);
  const startRss = Deno.memoryUsage().rss;
  const started = performance.now();
  let rows = 0;
  if (contender.startsWith("floor")) {
    const parser = new XMLParser({ ignoreAttributes: false });
    const kept: unknown[] = [];
    let url = `${endpoint}?verb=ListRecords&metadataPrefix=oai_dc`;
    for (;;) {
      const doc = parser.parse(await (await fetch(url)).text());
      const list = doc["OAI-PMH"].ListRecords;
      const records = Array.isArray(list.record) ? list.record : [list.record];
      for (const record of records) kept.push(record);
      const token = list.resumptionToken?.["#text"];
      if (!token) break;
      url = `${endpoint}?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
    }
    rows = kept.length;
  } else {
    const oai = new OaiPmh(endpoint, { progress: false });
    if (contender.includes("table")) {
      rows = (await oai.harvest({ metadataPrefix: "oai_dc" })).numRows();
    } else {
      const limit = contender.includes("10,000") ? 10_000 : Infinity;
      for await (const page of oai.harvestRecords({ metadataPrefix: "oai_dc" })) {
        rows += page.records.length;
        if (rows >= limit) break;
      }
    }
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  return { ms, rows, startRss, peakRss };
}

async function spawn(contender: string, endpoint: string): Promise<RunResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--frozen",
      ...(contender.includes("capped") ? ["--v8-flags=--max-old-space-size=48"] : []),
      new URL(import.meta.url).pathname,
      "--child",
      contender,
      endpoint,
    ],
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`${contender} failed`);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

if (Deno.args[0] === "--child") {
  console.log(JSON.stringify(await runOne(Deno.args[1], Deno.args[2])));
} else {
  const rounds = Number(Deno.args[0] ?? 3);
  const sandbox = startOaiSandbox({ large: true, sites: {} });
  const endpoint = `${sandbox.url}/acme/large/api/oai`;
  try {
    const results = new Map<string, RunResult[]>(CONTENDERS.map((c) => [c, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...CONTENDERS].reverse() : CONTENDERS;
      for (const contender of order) results.get(contender)!.push(await spawn(contender, endpoint));
    }
    const floor = median(results.get(CONTENDERS[0])!.map((r) => r.ms));
    const rows = results.get(CONTENDERS[0])![0].rows;
    console.log(
      `\nOAI-PMH oai_dc harvest, ${
        rows.toLocaleString("en-US")
      } records in pages of 500, median of ${rounds} rounds`,
    );
    const summaries: Summary[] = [];
    for (const [name, list] of results) {
      summaries.push({
        name,
        kind: name.startsWith("floor")
          ? "floor"
          : name.includes("10,000") || name.includes("capped")
          ? "part"
          : "tidepool",
        ms: median(list.map((r) => r.ms)),
        peakMiB: median(list.map((r) => r.peakRss)) / 1024 / 1024,
        rows: list[0].rows,
      });
      const ms = median(list.map((r) => r.ms));
      const rate = Math.round((list[0].rows / ms) * 1000).toLocaleString("en-US");
      const peak = median(list.map((r) => r.peakRss));
      const growth = median(list.map((r) => r.peakRss - r.startRss));
      console.log(
        `  ${name.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms ${rate.padStart(9)} rows/s  ${
          (ms / floor).toFixed(2)
        }x floor  peak RSS ${mb(peak)} (+${mb(growth)})  rows ${list[0].rows}`,
      );
    }
    await record({
      title: "OAI-PMH",
      work: `oai_dc harvest, ${rows.toLocaleString("en-US")} records in pages of 500`,
      rounds,
      warmRuns: 0,
      summaries,
      notes: [
        "Each run a fresh process (cold); peak RSS sampled every 10 ms; no maintained OAI-PMH client on the npm registry, so the floor is the alternative",
      ],
    });
  } finally {
    await sandbox.close();
  }
}
