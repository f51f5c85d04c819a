/**
 * "First table in a fresh kernel": what a notebook user waits for after a
 * restart. For each adapter, a new Deno process imports tidepool, makes its
 * first request against the sandbox and renders the table as the notebook
 * display does (HTML and text). Beside them, the same process importing
 * Arquero alone and rendering a small table, which no client can beat.
 *
 * Each sample is a new process. Two times are kept: from the runtime's time
 * origin to the rendered table (what the process reports), and the wall time
 * of the whole process as the parent sees it (spawn to exit, runtime start
 * included). Medians over rounds; the contenders alternate.
 *
 * Run: deno run -A --frozen bench/first_table_bench.ts [rounds]
 */

import { type BenchSummary, median, print, record, roundsArg, type Summary } from "./_compare.ts";

interface FirstTable {
  name: string;
  /** Runs in the child; returns the rows of the rendered table. */
  run: (urls: Record<string, string>) => Promise<number>;
}

async function render(table: { numRows(): number }): Promise<number> {
  const { mediaBundle } = await import("../lib/notebook/mod.ts");
  const bundle = mediaBundle(table);
  if (!bundle?.["text/html"] || !bundle["text/plain"]) throw new Error("Nothing rendered");
  return table.numRows();
}

const CONTENDERS: FirstTable[] = [
  {
    name: "arquero alone: import, aq.table, toHTML",
    run: async () => {
      const aq = await import("arquero");
      const table = aq.table({ emotion: ["喜", "怒"], count: [3, 1] });
      if (!table.toHTML()) throw new Error("Nothing rendered");
      return table.numRows();
    },
  },
  {
    name: "Ocean node: searchAssets (every page)",
    run: async (urls) => {
      const { OceanNode } = await import("../mod.ts");
      return render(await new OceanNode(urls.ocean).searchAssets({ type: "dataset" }));
    },
  },
  {
    name: "Subgraph: orders (every order)",
    run: async (urls) => {
      const { Subgraph } = await import("../mod.ts");
      return render(await new Subgraph(urls.subgraph).orders());
    },
  },
  {
    name: "Archive: search",
    run: async (urls) => {
      const { Archive } = await import("../mod.ts");
      const archive = new Archive(urls.archive, { account: "shinano", db: "letters" });
      return render((await archive.search({ q: "Edo" })).hits);
    },
  },
  {
    name: "Archive: sparql",
    run: async (urls) => {
      const { Archive } = await import("../mod.ts");
      const archive = new Archive(urls.archive, { account: "shinano", db: "letters" });
      const rows = await archive.sparql("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 100");
      if (typeof rows === "boolean") throw new Error("A SELECT answered a boolean");
      return render(rows);
    },
  },
  {
    name: "Archive: OAI-PMH harvest (oai_dc)",
    run: async (urls) => {
      const { Archive } = await import("../mod.ts");
      const archive = new Archive(urls.archive, { account: "shinano", db: "letters" });
      return render(await archive.harvest({ metadataPrefix: "oai_dc" }));
    },
  },
  {
    name: "Expressions: search (one page)",
    run: async (urls) => {
      const { ExpressionSearch } = await import("../mod.ts");
      const page = await new ExpressionSearch(urls.expressions).search({
        emotion: ["喜"],
      });
      return render(page.hits);
    },
  },
];

if (Deno.args[0] === "--child") {
  const contender = CONTENDERS.find((c) => c.name === Deno.args[1]);
  if (!contender) throw new Error(`No contender ${Deno.args[1]}`);
  const rows = await contender.run(JSON.parse(Deno.args[2]));
  console.log(JSON.stringify({ rows, processMs: performance.now() }));
  Deno.exit(0);
}

const { startSandbox } = await import("../lib/sandbox/mod.ts");
await using sandbox = await startSandbox();
const rounds = roundsArg(5);
const file = new URL(import.meta.url).pathname;
const samples = new Map(
  CONTENDERS.map((c) => [c.name, [] as { processMs: number; wallMs: number; rows: number }[]]),
);
for (let round = 0; round < rounds; round++) {
  for (const contender of round % 2 ? [...CONTENDERS].reverse() : CONTENDERS) {
    const started = performance.now();
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--frozen",
        file,
        "--child",
        contender.name,
        JSON.stringify(sandbox.urls),
      ],
      stderr: "inherit",
    }).output();
    const wallMs = performance.now() - started;
    if (!output.success) throw new Error(`${contender.name} failed`);
    const result = JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
    samples.get(contender.name)!.push({ ...result, wallMs });
  }
}

const summaries: Summary[] = CONTENDERS.map(({ name }, i) => ({
  name,
  kind: i === 0 ? "floor" : "tidepool",
  ms: median(samples.get(name)!.map((s) => s.processMs)),
  processMs: median(samples.get(name)!.map((s) => s.wallMs)),
  rows: median(samples.get(name)!.map((s) => s.rows)),
}));
const floor = summaries[0];
const slowest = summaries.slice(1).reduce((a, b) => (b.processMs! > a.processMs! ? b : a));
const summary: BenchSummary = {
  title: "First table in a fresh kernel",
  work:
    "a new process: import, first request against the sandbox, table rendered as HTML and text (warm ms = runtime origin to rendered table; process ms = spawn to exit)",
  rounds,
  warmRuns: 0,
  msLabel: "to table",
  summaries,
  notes: [
    `Slowest adapter: ${slowest.name}, ${slowest.processMs!.toFixed(0)} ms spawn to exit, ${
      (slowest.processMs! / floor.processMs!).toFixed(2)
    }x Arquero alone (${floor.processMs!.toFixed(0)} ms)`,
    "Every adapter runs with its client defaults; one request or one paged walk each.",
  ],
};
print(summary);
await record(summary);
