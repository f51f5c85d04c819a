/**
 * `tidepool harvest --sources FILE --to DIR/` as two child processes, each
 * taking one of two shards of one list of repositories on three loopback
 * hosts: the shards cover the list without overlap, every record lands
 * once in its source's partition, and the per-host cap holds across the
 * two processes (counted by the servers) through the state folder's locks.
 */

import assert from "node:assert/strict";
import { query } from "../../lib/dataset/query.ts";
import { startFleet } from "../archive/oai/_many_hosts.ts";
import { runTidepool } from "./_run_cli.ts";

Deno.test("tidepool harvest --sources: two shards in two processes, one request per host", async () => {
  const fleet = startFleet(3, 6);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-cli-sources-" });
  try {
    const list = fleet.repos.map((repo, i) => i % 2 ? repo.url : `${repo.url} prefix=oai_dc`);
    await Deno.writeTextFile(`${dir}/list.txt`, `# repositories\n\n${list.join("\n")}\n`);
    const env = { TIDEPOOL_STATE_DIR: `${dir}/state` };
    const shard = (k: number) =>
      runTidepool(
        [
          "harvest",
          "--sources",
          "list.txt",
          "--shard",
          `${k}/2`,
          "--to",
          "out/",
          "--concurrency",
          "4",
        ],
        { cwd: dir, env },
      );
    const runs = await Promise.all([shard(1), shard(2)]);
    const failing = fleet.repos.filter((repo) => repo.kind === "failing");
    assert.ok(failing.length > 0);
    const seen = new Map<string, number>();
    for (const run of runs) {
      assert.equal(run.stdout, "");
      for (const repo of fleet.repos) {
        if (run.stderr.includes(`${repo.url} `)) seen.set(repo.url, (seen.get(repo.url) ?? 0) + 1);
      }
      assert.match(run.stderr, /source +status +records +errors +last datestamp/);
    }
    assert.deepEqual(
      [...seen.values()].filter((n) => n !== 1),
      [],
      "each source in exactly one shard",
    );
    assert.equal(seen.size, fleet.repos.length);
    const failedIn = runs.filter((run) => run.stderr.includes("failed: ")).length;
    assert.ok(failedIn >= 1);
    for (const run of runs) {
      assert.equal(run.code, run.stderr.includes("failed: ") ? 1 : 0, run.stderr);
    }

    const table = await query(
      "SELECT identifier, count(*)::INTEGER AS n FROM oai GROUP BY ALL",
      { views: { oai: `${dir}/out` } },
    );
    const held = new Map(
      (table.objects() as { identifier: string; n: number }[]).map((r) => [r.identifier, r.n]),
    );
    const want = new Map(
      fleet.repos.filter((repo) => repo.kind !== "failing")
        .flatMap((repo) => repo.records.map((r) => [r.identifier, 1] as const)),
    );
    assert.deepEqual(held, want, "every record of the working sources once");
    for (const [host, count] of fleet.hosts) {
      assert.ok(count.max <= 1, `${host} had ${count.max} requests in flight at once`);
    }
  } finally {
    await fleet.close();
    await Deno.remove(dir, { recursive: true });
  }
});
