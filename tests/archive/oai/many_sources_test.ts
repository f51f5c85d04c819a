import assert from "node:assert/strict";
import {
  harvestSources,
  sourceName,
  sourceShard,
  type SourcesProgress,
} from "../../../lib/archive/oai/mod.ts";
import { query } from "../../../lib/dataset/query.ts";
import { startFleet } from "./_many_hosts.ts";

const HOSTS = 5;
const PER_HOST = 10;
const CAP = 4;

/** Every (source, identifier) the dataset holds, with how many rows each has. */
async function rowsBySource(dir: string): Promise<Map<string, number>> {
  const table = await query(
    "SELECT source, identifier, count(*)::INTEGER AS n FROM oai GROUP BY ALL",
    { views: { oai: dir } },
  );
  const counts = new Map<string, number>();
  for (const row of table.objects() as { source: string; identifier: string; n: number }[]) {
    counts.set(`${row.source} ${row.identifier}`, row.n);
  }
  return counts;
}

Deno.test("fifty sources on five hosts, two nights: every record once, no host above its cap", async () => {
  const fleet = startFleet(HOSTS, PER_HOST);
  const dir = await Deno.makeTempDir();
  try {
    const run = (progress: SourcesProgress[]) =>
      harvestSources({
        sources: fleet.repos.map((repo) => ({ url: repo.url })),
        dir,
        concurrency: CAP,
        client: { retry: { retries: 4, baseDelayMs: 5, maxDelayMs: 2_000 }, minIntervalMs: 0 },
        harvest: { partitionBy: "none" },
        onProgress: (p) => progress.push(p),
      });
    const night1: SourcesProgress[] = [];
    const first = await run(night1);
    const failing = fleet.repos.filter((repo) => repo.kind === "failing");
    assert.ok(failing.length >= 5 && fleet.repos.some((r) => r.kind === "storm"));
    assert.equal(first.sources.length, HOSTS * PER_HOST);
    for (const [i, line] of first.sources.entries()) {
      const repo = fleet.repos[i];
      assert.equal(line.status, repo.kind === "failing" ? "failed" : "done", line.url);
      if (line.status === "done") {
        assert.equal(line.records, repo.records.length);
        assert.equal(line.errors, 0);
        const latest = repo.records.map((r) => r.datestamp).sort().at(-1);
        assert.equal(line.lastDatestamp, latest);
      } else {
        assert.equal(line.errors, 1);
        assert.match(line.error!, /500|broken/);
      }
    }
    const end1 = night1.at(-1)!;
    assert.deepEqual(
      [end1.done, end1.failing, end1.running, end1.waiting],
      [HOSTS * PER_HOST - failing.length, failing.length, 0, 0],
    );
    assert.ok(night1.some((p) => p.waiting > 0 && p.running > 0));

    // The next night: the failing sources are back, every source has news.
    for (const repo of failing) repo.down = false;
    for (const repo of fleet.repos) fleet.addRecords(repo, 3);
    const asked = new Map(fleet.repos.map((repo) => [repo, repo.froms.length]));
    const second = await run([]);
    for (const [i, line] of second.sources.entries()) {
      const repo = fleet.repos[i];
      assert.equal(line.status, "done", `${line.url}: ${line.error}`);
      assert.equal(line.errors, 0);
      if (repo.kind === "failing") {
        assert.equal(line.records, repo.records.length, "a failed source is harvested whole");
      } else {
        // Incremental: only the news (and at most the record at the last datestamp) again.
        assert.ok(line.records >= 3 && line.records <= 4, `${line.url}: ${line.records}`);
        assert.ok(repo.froms.length > asked.get(repo)!, "the second night asks from a date");
      }
      assert.equal(line.lastDatestamp, repo.records.map((r) => r.datestamp).sort().at(-1));
    }

    const held = await rowsBySource(dir);
    const want = new Map<string, number>();
    for (const [i, line] of second.sources.entries()) {
      for (const record of fleet.repos[i].records) want.set(`${line.name} ${record.identifier}`, 1);
    }
    assert.equal(held.size, want.size);
    assert.deepEqual(held, want, "every record once, in its source's partition");

    for (const [host, count] of fleet.hosts) {
      assert.ok(count.max <= 1, `${host} had ${count.max} requests in flight at once`);
      assert.equal(count.early, 0, `${host} got requests during its Retry-After`);
    }
    assert.ok(fleet.all.max <= CAP, `${fleet.all.max} requests in flight in all`);
  } finally {
    await fleet.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("source names are folder-safe and distinct; shards split a list without overlap", () => {
  const sources = Array.from({ length: 400 }, (_, i) => ({
    url: `https://host${i % 37}.example:8443/oai/${i % 5 ? "request" : "../../etc"}?k=${i}`,
    set: i % 3 ? undefined : `set/${i}`,
  }));
  const names = sources.map(sourceName);
  assert.equal(new Set(names).size, sources.length);
  for (const name of names) assert.match(name, /^[A-Za-z0-9][A-Za-z0-9.-]{0,98}[0-9a-f]$/);
  assert.equal(sourceName(sources[7]), sourceName({ ...sources[7] }), "stable");
  assert.notEqual(
    sourceName({ url: sources[0].url, set: "a" }),
    sourceName({ url: sources[0].url, set: "b" }),
  );
  const shards = sources.map((s) => sourceShard(s, 4));
  for (let k = 0; k < 4; k++) {
    const share = shards.filter((shard) => shard === k).length;
    assert.ok(share > 50 && share < 150, `shard ${k}: ${share} of 400`);
  }
  assert.deepEqual(sources.map((s) => sourceShard(s, 4)), shards, "the same shard every time");
});

Deno.test("a source listed twice is refused before any request, whatever its shard", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-twice-" });
  let requests = 0;
  const fetch = () => {
    requests++;
    return Promise.resolve(new Response("no", { status: 500 }));
  };
  try {
    for (
      const sources of [
        [{ url: "https://a.example/oai" }, { url: "https://a.example/oai" }],
        [{ url: "https://a.example/oai", metadataPrefix: "oai_dc" }, {
          url: "https://a.example/oai",
        }],
        [{ url: "https://b.example/oai" }, { url: "https://a.example/oai", set: "s" }, {
          url: "https://a.example/oai",
        }],
      ]
    ) {
      for (const shard of [undefined, { index: 0, count: 2 }, { index: 1, count: 2 }]) {
        await assert.rejects(
          harvestSources({
            sources,
            dir,
            shard,
            harvest: { set: "s" },
            client: { fetch },
          }),
          /Duplicate source \d: the same as source \d/,
        );
      }
    }
    assert.equal(requests, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
