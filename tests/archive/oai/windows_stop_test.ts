/**
 * A windowed harvest (several lists in flight) that stops early stops the
 * way one list does: never a list request past `maxPages` (counted at the
 * repository), `maxRows` counting the table's rows (not a record again in
 * another window), nothing sent once its signal has aborted (Identify
 * included), no wait for an Identify still under way after an abort, and
 * no lane still at work once it has failed (a lane writing its window's
 * spool or the state file after the harvest rejected races the rerun that
 * resumes it: a refused state file, or a spool left behind).
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import {
  createOaiProvider,
  isoSeconds,
  type OaiSandboxRecord,
  seedOaiRecords,
} from "../../../lib/sandbox/archive/oai/mod.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { failingOn } from "./_failing_fetch.ts";
import { drainQueue } from "../../../lib/archive/oai/_window_queue.ts";
import { settled, within } from "../../_events.ts";

const quiet = { progress: false as const, warn: () => {} };

/**
 * A loopback repository that counts its list requests and Identify; Identify
 * is held while `holdIdentify` is set, until released.
 */
function repository(records: OaiSandboxRecord[]) {
  const provider = createOaiProvider({
    repository: { repositoryName: "Letters", adminEmail: ["admin@archive.example"] },
    records,
  });
  const seen = { lists: 0, identify: 0 };
  /** List requests by the `x-run` header of the fetch that sent them. */
  const byRun = new Map<string, number>();
  let release = () => {};
  const released = new Promise<void>((resolve) => release = resolve);
  let identifyArrived = () => {};
  const identifyHeld = new Promise<void>((resolve) => identifyArrived = resolve);
  const hold = { identify: false };
  const server = serveLocal(async (request) => {
    const verb = new URL(request.url).searchParams.get("verb") ?? "";
    if (verb.startsWith("List")) {
      seen.lists++;
      const run = request.headers.get("x-run") ?? "";
      byRun.set(run, (byRun.get(run) ?? 0) + 1);
    }
    if (verb === "Identify") {
      seen.identify++;
      if (hold.identify) {
        identifyArrived();
        await released;
      }
    }
    return provider.handle(request);
  });
  return {
    url: `${server.url}/acme/letters/api/oai`,
    seen,
    byRun,
    hold,
    identifyHeld,
    close: async () => {
      release();
      await server.close();
    },
    release,
  };
}

Deno.test("maxPages caps the list requests a windowed harvest sends, as it caps one list", async () => {
  const repo = repository(seedOaiRecords({ count: 3_000, seed: 3 }));
  try {
    // Until given: the windows do not move with the clock between the runs.
    const window = { until: "2025-12-31" };
    const full = await new OaiPmh(repo.url, { ...quiet, concurrency: 4 }).harvest(window);
    // Each run's requests are told apart at the repository, where a cancelled one may arrive late.
    const tagged = (run: string): typeof fetch => (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("x-run", run);
      return fetch(input, { ...init, headers });
    };
    const runs: [string, number][] = [];
    for (const concurrency of [1, 4, 8]) {
      for (const maxPages of [1, 2, 5, 13, 21]) {
        const run = `concurrency ${concurrency}, maxPages ${maxPages}`;
        runs.push([run, maxPages]);
        await assert.rejects(
          new OaiPmh(repo.url, { ...quiet, concurrency, fetch: tagged(run) })
            .harvest({ ...window, maxPages }),
          /maxPages/,
        );
      }
    }
    for (const [run, maxPages] of runs) {
      const sent = repo.byRun.get(run) ?? 0;
      assert.ok(sent <= maxPages, `${run}: ${sent} list requests`);
    }
    // A cap the harvest needs exactly is enough: nothing is asked past a list's last page.
    repo.seen.lists = 0;
    await new OaiPmh(repo.url, { ...quiet, concurrency: 4 }).harvest(window);
    const needed = repo.seen.lists;
    const capped = await new OaiPmh(repo.url, { ...quiet, concurrency: 4 })
      .harvest({ ...window, maxPages: needed });
    assert.equal(tableDigest(capped).sha256, tableDigest(full).sha256);
  } finally {
    await repo.close();
  }
});

Deno.test("maxRows caps the table's rows, not the records the windows repeat", async () => {
  // A repository that ignores from and until: every window lists every record.
  const provider = createOaiProvider({
    repository: { repositoryName: "Letters", adminEmail: ["admin@archive.example"] },
    records: seedOaiRecords({ count: 1_500, seed: 3 }),
  });
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    url.searchParams.delete("from");
    url.searchParams.delete("until");
    return provider.handle(new Request(url));
  });
  try {
    const endpoint = `${server.url}/acme/letters/api/oai`;
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    for (const concurrency of [1, 2, 4, 8]) {
      const oai = new OaiPmh(endpoint, { ...quiet, concurrency });
      const table = await oai.harvest({ maxRows: 1_500 });
      assert.equal(
        tableDigest(table).sha256,
        tableDigest(one).sha256,
        `concurrency ${concurrency}`,
      );
      await assert.rejects(oai.harvest({ maxRows: 1_499 }), /maxRows/);
    }
  } finally {
    await server.close();
  }
});

Deno.test("an aborted signal: a harvest asks nothing, Identify included", async () => {
  const repo = repository(seedOaiRecords({ count: 500, seed: 3 }));
  try {
    for (
      const [concurrency, options] of [
        [4, {}],
        [4, { set: "map" }],
        [8, { from: "2022-03-01" }],
        // One list that needs the granularity for a `from` in seconds.
        [1, { from: "2022-03-01T10:00:00Z" }],
      ] as const
    ) {
      const stop = new AbortController();
      stop.abort(new Error("stopped by the caller"));
      await assert.rejects(
        new OaiPmh(repo.url, { ...quiet, concurrency }).harvest({
          ...options,
          signal: stop.signal,
        }),
        /stopped by the caller/,
      );
      const label = `concurrency ${concurrency} ${JSON.stringify(options)}`;
      assert.deepEqual(repo.seen, { lists: 0, identify: 0 }, label);
    }
  } finally {
    await repo.close();
  }
});

Deno.test("a harvest aborted while Identify is under way stops at once", async () => {
  for (
    const [concurrency, options] of [
      [4, {}],
      [1, { from: "2022-03-01T10:00:00Z" }],
    ] as const
  ) {
    const repo = repository(seedOaiRecords({ count: 500, seed: 3 }));
    repo.hold.identify = true;
    try {
      const stop = new AbortController();
      const harvest = new OaiPmh(repo.url, { ...quiet, concurrency })
        .harvest({ ...options, signal: stop.signal });
      await repo.identifyHeld;
      stop.abort(new Error("stopped by the caller"));
      // Identify is still held: a harvest that waits for it never settles here.
      const outcome = await within(
        harvest.then(() => "resolved", (error) => String(error)),
        "still waiting",
      );
      assert.match(outcome, /stopped by the caller/, `concurrency ${concurrency}`);
      assert.equal(repo.seen.lists, 0);
    } finally {
      await repo.close();
    }
  }
});

Deno.test("the lanes' queue settles only when every lane has, the first failure thrown", async () => {
  for (const failing of [1, 2, 3]) {
    let releaseSlow = () => {};
    const slow = new Promise<void>((resolve) => releaseSlow = resolve);
    const ended: number[] = [];
    const failures: unknown[] = [];
    let done = false;
    const queue = drainQueue(
      [1, 2, 3, 4],
      3,
      () => 0,
      async (item) => {
        if (item === failing) throw new Error(`item ${item} failed`);
        if (item !== 4) await slow;
        ended.push(item);
      },
      (error) => failures.push(error),
    ).finally(() => done = true);
    queue.catch(() => {});
    await settled();
    assert.equal(done, false, `item ${failing} failed: the queue settled while lanes worked`);
    assert.equal(failures.length, 1);
    releaseSlow();
    await assert.rejects(queue, new RegExp(`item ${failing} failed`));
    // The lanes at work ended; no item was taken after the failure.
    assert.deepEqual(ended.sort(), [1, 2, 3].filter((i) => i !== failing));
  }
});

Deno.test("a windowed harvest that failed is resumed at once: same table, no file left", async () => {
  // Half the records in the last days: long windows are cut in parts while lanes write spools.
  const records = seedOaiRecords({ count: 6_000, seed: 5 }).map((record, i) =>
    i < 3_000 ? record : { ...record, datestamp: isoSeconds(Date.UTC(2026, 0, 1) + i * 60_000) }
  );
  const repo = repository(records);
  const dir = await Deno.makeTempDir();
  const state = `${dir}/harvest.json`;
  try {
    const one = await new OaiPmh(repo.url, { ...quiet, concurrency: 1 }).harvest();
    for (let failAt = 10; failAt < 70; failAt += 6) {
      const failing = failingOn(failAt + 1);
      await assert.rejects(
        new OaiPmh(repo.url, { ...quiet, concurrency: 4, retry: false, fetch: failing })
          .harvest({ state }),
        /Cannot reach the service/,
      );
      const table = await new OaiPmh(repo.url, { ...quiet, concurrency: 4 }).harvest({ state });
      const label = `failed at list request ${failAt + 1}`;
      assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, label);
      const left = [...Deno.readDirSync(dir)].map((entry) => entry.name);
      assert.deepEqual(left, ["harvest.json"], label);
      await Deno.remove(state);
    }
  } finally {
    await repo.close();
    await Deno.remove(dir, { recursive: true });
  }
});
