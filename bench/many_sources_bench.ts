/**
 * A harvest of many sources (issue 57): 200 OAI-PMH repositories on eight
 * loopback hosts (127.0.0.2-9), every answer 50 ms late, harvested into one
 * partitioned dataset by `harvestSources` at a global cap of 16 (one
 * request per host), against the same harvest one source at a time
 * (concurrency 1). Paired rounds (A B, B A, ...): the ratio is the median
 * of the per-round ratios. Every run must hold every record once and no
 * host above one request in flight (counted by the servers), or the bench
 * fails. The servers run in this process.
 *
 *   deno run -A --frozen bench/many_sources_bench.ts [rounds]
 */

import { harvestSources } from "../lib/archive/oai/harvest_sources.ts";
import { query } from "../lib/dataset/query.ts";
import { startFleet } from "../tests/archive/oai/_many_hosts.ts";
import { loadAverage, median, pairedRatio } from "./_compare.ts";

const HOSTS = 8;
const SOURCES = 200;
const DELAY_MS = 50;
const rounds = Number(Deno.args[0] ?? 3);

const fleet = startFleet(HOSTS, SOURCES / HOSTS, { delayMs: DELAY_MS, kinds: ["plain"] });
const records = fleet.repos.reduce((sum, repo) => sum + repo.records.length, 0);
const contenders = [
  { name: "one source at a time (concurrency 1)", concurrency: 1 },
  { name: "harvestSources, concurrency 16, 1 per host", concurrency: 16 },
];
const times: number[][] = contenders.map(() => []);
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const c of order) {
      const dir = await Deno.makeTempDir({ prefix: "tidepool-many-sources-" });
      for (const count of fleet.hosts.values()) count.max = 0;
      try {
        const start = performance.now();
        const summary = await harvestSources({
          sources: fleet.repos.map((repo) => ({ url: repo.url })),
          dir,
          concurrency: contenders[c].concurrency,
          client: { minIntervalMs: 0 },
          harvest: { partitionBy: "none" },
        });
        times[c].push(performance.now() - start);
        const failed = summary.sources.filter((s) => s.status !== "done");
        if (failed.length) throw new Error(`${failed.length} sources failed: ${failed[0].error}`);
        const [row] = await query(
          "SELECT count(*)::INTEGER AS n, count(DISTINCT (source, identifier))::INTEGER AS d FROM oai",
          { views: { oai: dir } },
        ).then((t) => t.objects() as { n: number; d: number }[]);
        if (row.n !== records || row.d !== records) {
          throw new Error(`${row.n} rows (${row.d} distinct) for ${records} records`);
        }
        const worst = Math.max(...[...fleet.hosts.values()].map((h) => h.max));
        if (worst > 1) throw new Error(`a host had ${worst} requests in flight`);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  }
} finally {
  await fleet.close();
}
console.log(
  `${SOURCES} sources on ${HOSTS} hosts, ${
    records.toLocaleString("en-US")
  } records, answers ${DELAY_MS} ms late, ${rounds} paired rounds, load ${loadAverage()}`,
);
console.log("| contender | median s | speed-up (paired) |\n| --- | ---: | ---: |");
for (const [i, contender] of contenders.entries()) {
  const ratio = pairedRatio(times[0], times[i]);
  console.log(
    `| ${contender.name} | ${(median(times[i]) / 1000).toFixed(2)} | ${
      ratio === undefined ? "-" : `${ratio.toFixed(2)}x`
    } |`,
  );
}
