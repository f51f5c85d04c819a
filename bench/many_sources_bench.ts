/**
 * A harvest of many sources (issue 57): 200 OAI-PMH repositories on eight
 * loopback hosts (127.0.0.2-9), every answer late (100 ms unless given),
 * served by a process of their own (`_fleet_process.ts`). Contenders:
 *
 * - one source at a time (`harvestSources`, concurrency 1), in this process;
 * - `harvestSources` at a global cap of 16, one request per host, in this process;
 * - one `tidepool harvest URL --to DIR/source=NAME/` process per source, 8 at
 *   a time (as `parallel -j 8` over the list), each with its own folder and
 *   no cap shared between them (metha's way);
 * - one `tidepool harvest --sources ONE --to DIR/pN/` process per source, 8 at
 *   a time, sharing the per-host cap through the state folder's locks.
 *
 * The list is shuffled once (seeded), as the Internet Archive shuffled
 * metha's, and every contender takes it in that order. Paired rounds, the
 * order reversed every other round; each ratio is the median of the
 * per-round ratios to the one-at-a-time run. Every run must hold every
 * record once (DuckDB over the folder) or the bench fails; the most
 * requests a host had in flight (counted by the servers) is reported, and
 * must be 1 for the contenders that promise it.
 *
 *   deno run -A --frozen bench/many_sources_bench.ts [rounds] [delay ms] [parallel -j]
 */

import { harvestSources, sourceName } from "../lib/archive/oai/harvest_sources.ts";
import { query } from "../lib/dataset/query.ts";
import { loadAverage, median, pairedRatio } from "./_compare.ts";
import { inPool } from "./_pool.ts";

const HOSTS = 8;
const SOURCES = 200;
const rounds = Number(Deno.args[0] ?? 2);
const DELAY_MS = Number(Deno.args[1] ?? 100);
const JOBS = Number(Deno.args[2] ?? 8);
const ROOT = new URL("../", import.meta.url).pathname;

const server = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--frozen",
    `${ROOT}bench/_fleet_process.ts`,
    String(HOSTS),
    String(SOURCES / HOSTS),
    String(DELAY_MS),
  ],
  stdout: "piped",
  stderr: "inherit",
}).spawn();

/** The first line the fleet prints. */
async function fleetOf(): Promise<{ control: string; repos: { url: string; records: number }[] }> {
  const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the fleet ended before it listened");
    text += value;
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n")));
}

/** A seeded shuffle (mulberry32), the same list order for every contender and round. */
function shuffled<T>(items: readonly T[], seed = 57): T[] {
  const out = items.slice();
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function tidepool(args: string[], env: Record<string, string>): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", `--config=${ROOT}deno.json`, `${ROOT}cli.ts`, ...args],
    env,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`tidepool ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
}

try {
  const fleet = await fleetOf();
  const urls = shuffled(fleet.repos.map((repo) => repo.url));
  const records = fleet.repos.reduce((sum, repo) => sum + repo.records, 0);
  const inProcess = (concurrency: number) => async (dir: string) => {
    const summary = await harvestSources({
      sources: urls.map((url) => ({ url })),
      dir,
      concurrency,
      client: { minIntervalMs: 0 },
      harvest: { partitionBy: "none" },
    });
    const failed = summary.sources.filter((s) => s.status !== "done");
    if (failed.length) throw new Error(`${failed.length} sources failed: ${failed[0].error}`);
  };
  const contenders = [
    { name: "one source at a time (harvestSources, concurrency 1)", cap: 1, run: inProcess(1) },
    { name: "harvestSources, concurrency 16, 1 per host", cap: 1, run: inProcess(16) },
    {
      name: `a process per source (tidepool harvest URL), ${JOBS} at a time, no shared cap`,
      cap: Infinity,
      run: (dir: string) =>
        inPool(urls, JOBS, async (url) => {
          const folder = `${dir}/source=${sourceName({ url, metadataPrefix: "oai_dc" })}/`;
          await tidepool(["harvest", url, "--to", folder, "--partition", "none", "--quiet"], {
            TIDEPOOL_STATE_DIR: `${dir}/../state`,
          });
        }),
    },
    {
      name: `a process per source (tidepool harvest --sources), ${JOBS} at a time, 1 per host`,
      cap: 1,
      run: (dir: string) =>
        inPool(urls.map((url, i) => [url, i] as const), JOBS, async ([url, i]) => {
          await Deno.writeTextFile(`${dir}/../list-${i}.txt`, `${url}\n`);
          await tidepool(
            [
              "harvest",
              "--sources",
              `${dir}/../list-${i}.txt`,
              "--to",
              `${dir}/p${i}/`,
              "--partition",
              "none",
              "--quiet",
            ],
            { TIDEPOOL_STATE_DIR: `${dir}/../state` },
          );
        }),
    },
  ];
  const only = Deno.env.get("CONTENDERS")?.split(",").map(Number);
  const chosen = contenders.filter((_, i) => !only || only.includes(i));
  const times: number[][] = chosen.map(() => []);
  const most: number[] = chosen.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    const order = chosen.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const c of order) {
      const work = await Deno.makeTempDir({ prefix: "tidepool-many-sources-" });
      const dir = `${work}/out`;
      await Deno.mkdir(dir);
      await fetch(`${fleet.control}/reset`, { method: "POST" }).then((r) => r.body?.cancel());
      try {
        const start = performance.now();
        await chosen[c].run(dir);
        times[c].push(performance.now() - start);
        const [row] = await query(
          "SELECT count(*)::INTEGER AS n, count(DISTINCT (source, identifier))::INTEGER AS d FROM oai",
          { views: { oai: dir } },
        ).then((t) => t.objects() as { n: number; d: number }[]);
        if (row.n !== records || row.d !== records) {
          throw new Error(`${chosen[c].name}: ${row.n} rows (${row.d} distinct) for ${records}`);
        }
        const counts = await (await fetch(`${fleet.control}/counts`)).json();
        const worst = Math.max(...Object.values(counts).map((h) => (h as { max: number }).max));
        most[c] = Math.max(most[c], worst);
        if (worst > chosen[c].cap) {
          throw new Error(`${chosen[c].name}: a host had ${worst} at once`);
        }
        console.error(
          `round ${round + 1}: ${chosen[c].name}: ${(times[c].at(-1)! / 1000).toFixed(1)} s`,
        );
      } finally {
        await Deno.remove(work, { recursive: true });
      }
    }
  }
  console.log(
    `${SOURCES} sources on ${HOSTS} hosts, ${
      records.toLocaleString("en-US")
    } records, answers ${DELAY_MS} ms late, ${rounds} paired rounds, load ${loadAverage()}`,
  );
  console.log(
    "| contender | median s | speed-up (paired) | most in flight at one host |\n| --- | ---: | ---: | ---: |",
  );
  for (const [i, contender] of chosen.entries()) {
    const ratio = pairedRatio(times[0], times[i]);
    console.log(
      `| ${contender.name} | ${(median(times[i]) / 1000).toFixed(2)} | ${
        ratio === undefined ? "-" : `${ratio.toFixed(2)}x`
      } | ${most[i]} |`,
    );
  }
} finally {
  server.kill();
  await server.status;
}
