/**
 * Importing the module in a fresh process: `mod.ts` against arquero alone,
 * and each heavy dependency and area alone, so the cost of each import is
 * known. Every sample is a new process that times its one dynamic import
 * (and reports the time from process start to the import's end); medians.
 *
 * Run: deno run -A --frozen bench/import_bench.ts [rounds]
 */

import { type BenchSummary, median, print, record, roundsArg, type Summary } from "./_compare.ts";

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

if (Deno.args[0] === "--child") {
  const started = performance.now();
  await import(Deno.args[1]);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, processMs: performance.now() }));
  Deno.exit(0);
}

const rounds = roundsArg(5);
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
  kind: name.startsWith("tidepool")
    ? "tidepool"
    : name === "arquero alone"
    ? "floor"
    : "alternative",
  ms: median(times.get(name)!.map((t) => t.ms)),
  processMs: median(times.get(name)!.map((t) => t.processMs)),
}));
const mod = summaries[0];
const arquero = summaries[1];
const summary: BenchSummary = {
  title: "Import",
  work: "one dynamic import in a fresh process (import time; process start to end of import)",
  rounds,
  warmRuns: 0,
  summaries,
  notes: [
    `mod.ts / arquero alone: ${(mod.ms! / arquero.ms!).toFixed(2)}x import time, ${
      (mod.processMs! / arquero.processMs!).toFixed(2)
    }x process time (target 1.5x)`,
  ],
};
print(summary);
await record(summary);
