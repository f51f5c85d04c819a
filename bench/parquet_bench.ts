/**
 * A harvest past memory: `harvestDataset` writes an `oai_dc` harvest of
 * 100,000 and then 1,000,000 records from the loopback sandbox (pages of
 * 500) into a Parquet dataset partitioned by year. Each harvest runs in a
 * fresh subprocess, so its peak memory (VmHWM) is its own; the 100,000 run
 * is the baseline the 1,000,000 run is compared with. DuckDB then reads
 * each dataset (in this process) and counts its rows and distinct
 * identifiers against the records the sandbox serves. A last run repeats the
 * 1,000,000 harvest in a process whose V8 heap is capped (`V8_FLAGS`), the
 * setting docs/tables.md gives for a harvest that must stay small.
 *
 *   deno run -A --frozen bench/parquet_bench.ts [small large]
 */

import { OaiPmh } from "../lib/archive/oai/mod.ts";
import { harvestDataset } from "../lib/archive/oai/harvest_dataset.ts";
import { query } from "../lib/dataset/query.ts";
import { seedOaiRecords, startOaiSandbox } from "../lib/sandbox/archive/oai/mod.ts";
import { peakRss, record, type Summary } from "./_compare.ts";

// Sizes from the command line for a quick trial (`... parquet_bench.ts 2000 20000`).
const SIZES = Deno.args[0] !== "--child" && Deno.args.length === 2
  ? Deno.args.map(Number)
  : [100_000, 1_000_000];
const SITE = "acme/large";
/**
 * Semi-spaces of 4 MiB (by default V8 grew this harvest's young generation to 64 MiB) and an
 * old generation capped at 128 MiB (the live data of a harvest is 13 to 25 MiB): V8 then
 * collects before the heap grows instead of after.
 */
const V8_FLAGS = "--v8-flags=--max-semi-space-size=4,--max-old-space-size=128";

interface RunResult {
  ms: number;
  rows: number;
  files: number;
  bytes: number;
  peakRss: number;
}

async function child(endpoint: string, dir: string): Promise<RunResult> {
  const started = performance.now();
  const oai = new OaiPmh(endpoint, { progress: false });
  const summary = await harvestDataset(oai, dir, { metadataPrefix: "oai_dc" });
  const ms = performance.now() - started;
  let bytes = 0;
  for (const file of summary.files) bytes += (await Deno.stat(`${dir}/${file}`)).size;
  return { ms, rows: summary.rows, files: summary.files.length, bytes, peakRss: peakRss() };
}

async function run(
  count: number,
  flags: string[] = [],
): Promise<RunResult & { counted: number; distinct: number }> {
  const sandbox = startOaiSandbox({
    sites: {
      [SITE]: { records: seedOaiRecords({ count, seed: 11, site: SITE }), pageSize: 500 },
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "tidepool-parquet-bench-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--frozen",
        ...flags,
        new URL(import.meta.url).pathname,
        "--child",
        `${sandbox.url}/${SITE}/api/oai`,
        dir,
      ],
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`The ${count} harvest failed`);
    const result: RunResult = JSON.parse(new TextDecoder().decode(output.stdout));
    const counts = await query(
      "SELECT count(*)::BIGINT AS n, count(DISTINCT identifier)::BIGINT AS ids FROM d",
      { views: { d: dir } },
    );
    const served = sandbox.records[SITE].length;
    const counted = Number(counts.get("n", 0));
    const distinct = Number(counts.get("ids", 0));
    if (counted !== served || distinct !== served) {
      throw new Error(`DuckDB counts ${counted} rows, ${distinct} identifiers; served ${served}`);
    }
    return { ...result, counted, distinct };
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (Deno.args[0] === "--child") {
  console.log(JSON.stringify(await child(Deno.args[1], Deno.args[2])));
} else {
  const runs = [
    ...SIZES.map((count) => ({ count, flags: [] as string[] })),
    { count: SIZES.at(-1)!, flags: [V8_FLAGS] },
  ];
  const results = [];
  for (const { count, flags } of runs) results.push(await run(count, flags));
  const baseline = results[0];
  const summaries: Summary[] = results.map((r, i) => ({
    name: `tidepool harvestDataset, ${runs[i].count.toLocaleString("en-US")} records${
      runs[i].flags.length ? `, V8 heap capped (${runs[i].flags.join(" ")})` : ""
    }`,
    kind: i === 0 ? "floor" : "tidepool",
    ms: r.ms,
    peakMiB: r.peakRss / 1024 / 1024,
    rows: r.counted,
    note: `${r.files} files, ${
      (r.bytes / 1024 / 1024).toFixed(1)
    } MiB; DuckDB: ${r.counted} rows, ${r.distinct} identifiers; peak ${
      (r.peakRss / baseline.peakRss).toFixed(2)
    }x the ${SIZES[0].toLocaleString("en-US")} run`,
  }));
  console.log("\nOAI-PMH oai_dc harvest into a Parquet dataset by year (one run each)");
  for (const s of summaries) {
    console.log(
      `  ${s.name.padEnd(44)} ${s.ms!.toFixed(0).padStart(7)} ms  peak ${
        s.peakMiB!.toFixed(0)
      } MiB  ${s.note}`,
    );
  }
  await record({
    title: "Parquet dataset",
    work: `oai_dc harvest into Parquet partitioned by year, ${
      SIZES.map((n) => n.toLocaleString("en-US")).join(" and ")
    } records`,
    rounds: 1,
    warmRuns: 0,
    summaries,
    notes: [
      "Each harvest a fresh process (cold); peak MiB is its VmHWM; the 100,000 run is the baseline of the x floor column; DuckDB counts rows and distinct identifiers of each dataset against the records served",
    ],
  });
}
