/**
 * Importing the module in a fresh process: `mod.ts` against arquero alone,
 * and each heavy dependency and area alone, so the cost of each import is
 * known. One row imports a module that names every module mod.ts can reach
 * (statically or through a dynamic import) in dynamic imports it never
 * runs: Deno reads all of them when it builds the graph, so this is the
 * part of mod.ts's import that loading code on first use cannot remove.
 * The paired ratios are also taken with Deno's unstable lazy dynamic
 * imports, which leave only what mod.ts runs at import. Every sample is a
 * new process that times its one dynamic import (and reports the time from
 * process start to the import's end); medians.
 *
 * Run: deno run -A --frozen bench/import_bench.ts [rounds]
 */

import { type BenchSummary, median, print, record, roundsArg, type Summary } from "./_compare.ts";
import { importRatio, SERVICE_ENTRY_POINTS } from "../tests/performance/_import_ratio.ts";

const SPECS: [string, string][] = [
  ["tidepool mod.ts", "../mod.ts"],
  ["arquero alone", "arquero"],
  ["lib/http", "../lib/http/mod.ts"],
  ["lib/table", "../lib/table/mod.ts"],
  ["lib/subgraph", "../lib/subgraph/mod.ts"],
  ["lib/expressions", "../lib/expressions/mod.ts"],
  ["lib/ocean", "../lib/ocean/mod.ts"],
  ["lib/archive", "../lib/archive/mod.ts"],
  ["n3", "n3"],
  ["sparqljs", "sparqljs"],
  ["fast-xml-parser", "fast-xml-parser"],
  ["@noble/curves/secp256k1", "@noble/curves/secp256k1"],
  ["@noble/hashes/sha3", "@noble/hashes/sha3"],
  ["graphql", "graphql"],
  ["viem", "viem"],
  ["@observablehq/plot", "@observablehq/plot"],
  ["linkedom", "linkedom"],
  ["oxigraph", "oxigraph"],
];

/**
 * A module that names, in dynamic imports it never runs, every module of
 * this repository that mod.ts can reach: importing it costs Deno's reading
 * of the graph and nothing else.
 */
async function graphOnlyModule(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../mod.ts", import.meta.url).pathname],
    stdout: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: { specifier: string }[];
  };
  const files = info.modules.map((m) => m.specifier)
    .filter((s) => s.startsWith("file:") && !s.endsWith(".json"));
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    file,
    `export const loaders = [\n${
      files.map((f) => `  () => import(${JSON.stringify(f)}),\n`).join("")
    }];\n`,
  );
  return new URL(`file://${file}`).href;
}

if (Deno.args[0] === "--child") {
  const started = performance.now();
  await import(Deno.args[1]);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, processMs: performance.now() }));
  Deno.exit(0);
}

const rounds = roundsArg(5);
const graphOnly = await graphOnlyModule();
SPECS.splice(2, 0, ["tidepool graph only (every module read, none run)", graphOnly]);
const file = new URL(import.meta.url).pathname;
const times = new Map(SPECS.map(([name]) => [name, [] as { ms: number; processMs: number }[]]));
for (let round = 0; round < rounds; round++) {
  for (const [name, spec] of round % 2 ? [...SPECS].reverse() : SPECS) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--frozen", file, "--child", spec],
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`importing ${spec} failed`);
    times.get(name)!.push(JSON.parse(new TextDecoder().decode(output.stdout)));
  }
}
const summaries: Summary[] = SPECS.map(([name]) => ({
  name,
  kind: name.startsWith("tidepool graph")
    ? "part"
    : name.startsWith("tidepool")
    ? "tidepool"
    : name === "arquero alone"
    ? "floor"
    : "alternative",
  ms: median(times.get(name)!.map((t) => t.ms)),
  processMs: median(times.get(name)!.map((t) => t.processMs)),
}));
const mod = summaries[0];
const arquero = summaries[1];
// The ratio that the separate processes above blur (each has its own
// moment and its own cache state): Arquero, then the module, in one
// process, as the CI guard times it (tests/performance/_import_ratio.ts).
async function pairedRatios(spec: string, env?: Record<string, string>): Promise<number[]> {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) ratios.push(await importRatio(spec, env));
  return ratios;
}
const listed = (ratios: number[]) =>
  `median ${median(ratios).toFixed(2)}x (${rounds} processes: ${
    ratios.map((r) => r.toFixed(2)).join(", ")
  })`;
// Deno's unstable switch that reads a dynamic import's modules only when it
// runs: what mod.ts runs at import, without the reading of the graph.
const LAZY = { DENO_UNSTABLE_LAZY_DYNAMIC_IMPORTS: "1" };
const modUrl = new URL("../mod.ts", import.meta.url).href;
const paired = await pairedRatios(modUrl);
const pairedGraph = await pairedRatios(graphOnly);
const pairedLazy = await pairedRatios(modUrl, LAZY);
const pairedLazyGraph = await pairedRatios(graphOnly, LAZY);
// A script that uses one service can import that service's entry point
// (deno.json "exports"), which reaches a fifth to a half of mod.ts's files.
const pairedEntries: string[] = [];
for (const service of SERVICE_ENTRY_POINTS) {
  const ratios = await pairedRatios(new URL(`../lib/${service}/mod.ts`, import.meta.url).href);
  pairedEntries.push(`./${service} ${listed(ratios)}`);
}
const summary: BenchSummary = {
  title: "Import",
  work: "one dynamic import in a fresh process (import time; process start to end of import)",
  rounds,
  warmRuns: 0,
  summaries,
  notes: [
    `mod.ts / arquero alone: ${(mod.ms! / arquero.ms!).toFixed(2)}x import time, ${
      (mod.processMs! / arquero.processMs!).toFixed(2)
    }x process time (target of issue 34: 1.3x)`,
    `mod.ts after Arquero in one process, (Arquero + the rest) / Arquero: ${listed(paired)}`,
    `the graph-only module after Arquero in one process: ${listed(pairedGraph)}; ` +
    "what reading every module mod.ts can reach adds, before any of it runs",
    `with DENO_UNSTABLE_LAZY_DYNAMIC_IMPORTS=1 (not a default; Deno then reads a dynamic import's modules when it runs): mod.ts ${
      listed(pairedLazy)
    }; the graph-only module ${listed(pairedLazyGraph)}`,
    `one service's entry point after Arquero in one process: ${pairedEntries.join("; ")}`,
  ],
};
print(summary);
await record(summary);
await Deno.remove(new URL(graphOnly));
