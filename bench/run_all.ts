/**
 * Runs every benchmark in `bench/` one after another, each in its own
 * process so one cannot warm or burden the next, and writes
 * `bench/RESULTS.md` from their summaries: the machine, the date, the Deno
 * version and the exact versions of every package compared.
 *
 * Run: deno task bench
 */

import { type BenchSummary, ratio } from "./_compare.ts";

const here = new URL(".", import.meta.url).pathname;
const benches = [...Deno.readDirSync(here)]
  .filter((entry) => entry.isFile && entry.name.endsWith("_bench.ts"))
  .map((entry) => entry.name)
  .sort();

const json = await Deno.makeTempFile({ suffix: ".jsonl" });
const started = performance.now();
let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", `${here}${name}`],
    env: { TIDEPOOL_BENCH_JSON: json },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
const minutes = (performance.now() - started) / 60_000;
const summaries: BenchSummary[] = (await Deno.readTextFile(json)).trim().split("\n")
  .filter(Boolean).map((line) => JSON.parse(line));
await Deno.remove(json);
await Deno.writeTextFile(`${here}RESULTS.md`, await results(summaries, minutes));
console.log(`\nWrote bench/RESULTS.md (${minutes.toFixed(1)} min)`);
if (failed) {
  console.error(`${failed} benchmark(s) failed`);
  Deno.exit(1);
}

function machine(): string[] {
  const cpu = /model name\s*:\s*(.*)/.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1];
  const memory = /MemTotal:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/meminfo"))?.[1];
  return [
    `- Machine: ${navigator.hardwareConcurrency} CPUs (nproc), ${
      (Number(memory) / 1024 / 1024).toFixed(1)
    } GiB memory, ${cpu}`,
    `- Date: ${new Date().toISOString()}`,
    `- Deno ${Deno.version.deno} (V8 ${Deno.version.v8}), ${Deno.build.os} ${Deno.build.arch}`,
  ];
}

async function versions(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(`${here}../deno.json`));
  const packages = Object.values(config.imports as Record<string, string>)
    .map((spec) => /^npm:(@?[^@]+@[^/]+)/.exec(spec)?.[1])
    .filter((spec): spec is string => spec !== undefined);
  const debian: string[] = [];
  for (const name of ["python3-sparqlwrapper", "python3-pandas", "python3"]) {
    try {
      const { stdout, success } = await new Deno.Command("dpkg-query", {
        args: ["-W", "-f", "${Version}", name],
        stderr: "null",
      }).output();
      debian.push(`${name} ${success ? new TextDecoder().decode(stdout) : "not installed"}`);
    } catch {
      debian.push(`${name} not installed`);
    }
  }
  return `- npm (exact, from deno.json / deno.lock): ${[...new Set(packages)].join(", ")}\n` +
    `- Debian: ${debian.join(", ")}`;
}

function cell(value: number | undefined, digits = 0): string {
  return value === undefined ? "" : value.toFixed(digits);
}

async function results(list: BenchSummary[], minutes: number): Promise<string> {
  const lines = [
    "# Benchmarks: tidepool against the tools people use today",
    "",
    "Written by `deno task bench` (bench/run_all.ts); do not edit by hand.",
    "",
    ...machine(),
    await versions(),
    `- Whole run: ${minutes.toFixed(1)} min`,
    "",
    "Every network benchmark starts its sandbox on loopback in the bench process and runs",
    "each contender in a fresh subprocess, alternating contenders round by round. In each",
    'process the first run is "cold" (what a fresh script pays; peak memory is the',
    "process's VmHWM after it), then the work is repeated and the median of the repeats",
    'is "warm". "x floor" compares warm medians; the two "paired" columns are the median',
    "over rounds of the ratio of a contender's process time (start of the process to the",
    "end of its first run) and peak memory to the floor's in the same round, the runs one",
    "after the other (A B, then B A), so load that comes and goes weighs on both sides.",
    "Each section states the load average (1 min) at its start and end. A contender timed",
    'only as a whole external process (SPARQLWrapper) is compared on the "process" column.',
    "ocean.js 8.0.0 is not a contender: its",
    "`Aquarius.querySearch` posts to the legacy `/api/aquarius/assets/query`, a path the",
    "node interface does not have, so it cannot do the DDO work at all.",
    "",
  ];
  for (const bench of list) {
    lines.push(`## ${bench.title}: ${bench.work}`, "");
    lines.push(
      `Median of ${bench.rounds} rounds` +
        (bench.warmRuns ? `, ${bench.warmRuns} warm run(s) per process.` : "."),
      "",
    );
    const floor = bench.summaries.find((s) => s.kind === "floor")?.ms;
    lines.push(
      `| contender | ${
        bench.msLabel ?? "warm"
      } ms | cold ms | process ms | peak MiB | rows | x floor | process x floor, paired | peak x floor, paired | alternative / tidepool |`,
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const s of bench.summaries) {
      if (s.ms === undefined) {
        lines.push(`| ${s.name} | ${s.unavailable ?? "not run"} | | | | | | | | |`);
        continue;
      }
      lines.push(
        `| ${s.name}${s.note ? ` (${s.note})` : ""} | ${s.command ? "" : cell(s.ms)} | ${
          cell(s.coldMs)
        } | ${cell(s.processMs)} | ${cell(s.peakMiB)} | ${s.rows ?? ""} | ${
          floor && !s.command ? (s.ms / floor).toFixed(2) : ""
        } | ${cell(s.pairedProcess, 2)} | ${cell(s.pairedPeak, 2)} | ${
          s.kind === "alternative" ? ratio(bench, s) : ""
        } |`,
      );
    }
    for (const note of bench.notes ?? []) lines.push("", note);
    if (bench.load) lines.push("", `Load average (1 min): ${bench.load}.`);
    lines.push("");
  }
  return lines.join("\n");
}
