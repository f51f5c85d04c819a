/**
 * OAI-PMH harvests in from/until windows, several lists in flight: the same
 * table as the one-list harvest, the cap counted at a loopback gate, a busy
 * stretch cut into smaller windows, a record moved during the harvest kept
 * once, a 503 storm, and a harvest that stops and resumes without asking
 * for a finished window again (checked through the state file and the
 * requests the repository saw).
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import {
  isoSeconds,
  type OaiSandboxRecord,
  seedOaiRecords,
  startOaiSandbox,
} from "../../../lib/sandbox/archive/oai/mod.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { startNetworkGate } from "../../../bench/_network_gate.ts";

const SITE = "acme/letters";
const quiet = { progress: false as const, warn: () => {} };

/** The last `share` of the records moved into the last month: one busy stretch. */
function skewed(count: number, share: number): OaiSandboxRecord[] {
  const records = seedOaiRecords({ count, seed: 5 });
  const recent = Date.UTC(2026, 0, 1);
  return records.map((record, i) =>
    i < count * (1 - share) ? record : { ...record, datestamp: isoSeconds(recent + i * 60_000) }
  );
}

function sandboxOf(records: OaiSandboxRecord[], repository = {}) {
  return startOaiSandbox({ sites: { [SITE]: { records, repository } } });
}

Deno.test("windowed harvests give the one-list table, within the cap at the server", async () => {
  for (
    const [what, records, repository] of [
      ["even datestamps", seedOaiRecords({ count: 3_000 }), {}],
      ["a busy last month", skewed(3_000, 0.7), {}],
      ["day granularity", seedOaiRecords({ count: 2_000 }), { granularity: "YYYY-MM-DD" }],
    ] as const
  ) {
    const sandbox = sandboxOf([...records], repository);
    const gate = startNetworkGate(sandbox.url, { delayMs: 2 });
    try {
      const endpoint = `${gate.url}/${SITE}/api/oai`;
      for (
        const options of [
          {},
          { from: "2022-03-01" },
          { from: "2021-01-01", until: "2024-06-30" },
          { set: "map" },
          { verb: "ListIdentifiers" as const },
        ]
      ) {
        const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest(options);
        gate.inFlight.max = 0;
        const table = await new OaiPmh(endpoint, { ...quiet, concurrency: 4 }).harvest(options);
        const label = `${what} ${JSON.stringify(options)}`;
        assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, label);
        assert.ok(gate.inFlight.max <= 4, `${label}: ${gate.inFlight.max} in flight`);
        if (one.numRows() > 1_000) assert.ok(gate.inFlight.max > 1, `${label}: one at a time`);
      }
    } finally {
      await gate.close();
      await sandbox.close();
    }
  }
});

Deno.test("a busy stretch is cut into smaller windows", async () => {
  const sandbox = sandboxOf(skewed(4_000, 0.8));
  const windows = new Set<string>();
  try {
    const oai = new OaiPmh(`${sandbox.url}/${SITE}/api/oai`, {
      ...quiet,
      concurrency: 4,
      fetch: (input, init) => {
        const query = new URL(String(input)).searchParams;
        if (query.get("verb") === "ListRecords") {
          windows.add(`${query.get("from")} ${query.get("until")}`);
        }
        return fetch(input, init);
      },
    });
    const table = await oai.harvest();
    assert.equal(table.numRows(), 4_000);
    // Four windows first, then the busy one cut (each window asked for once, tokens aside).
    assert.ok(windows.size > 5, `${windows.size} windows`);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a record listed in two windows is kept once, at its latest datestamp, as in one list", async () => {
  // A repository that lists a record again after an edit, the old entry still in its index.
  const records = seedOaiRecords({ count: 2_000 });
  const early = records.find((r) => r.datestamp < "2021-01-01")!;
  const later = { ...early, datestamp: "2025-12-31T23:00:00Z" };
  const sandbox = sandboxOf([...records, later]);
  try {
    const endpoint = `${sandbox.url}/${SITE}/api/oai`;
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    const table = await new OaiPmh(endpoint, { ...quiet, concurrency: 4 }).harvest();
    const ids = table.array("identifier") as string[];
    assert.equal(ids.length, 2_000);
    assert.equal(new Set(ids).size, ids.length, "no identifier twice");
    const row = ids.indexOf(early.identifier);
    assert.equal((table.get("datestamp", row) as Date).toISOString(), "2025-12-31T23:00:00.000Z");
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a 503 storm: the windowed harvest completes with the same table, within the cap", async () => {
  const sandbox = sandboxOf(seedOaiRecords({ count: 1_500 }));
  const gate = startNetworkGate(sandbox.url, { unavailableEvery: 3, retryAfterSeconds: 1 });
  try {
    const one = await new OaiPmh(`${sandbox.url}/${SITE}/api/oai`, { ...quiet, concurrency: 1 })
      .harvest();
    const table = await new OaiPmh(`${gate.url}/${SITE}/api/oai`, {
      ...quiet,
      concurrency: 4,
      retry: { retries: 8 },
    }).harvest();
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
    assert.ok(gate.refused >= 3);
    assert.ok(gate.inFlight.max <= 4);
  } finally {
    await gate.close();
    await sandbox.close();
  }
});

Deno.test("an interrupted windowed harvest resumes without asking for a finished window again", async () => {
  const sandbox = sandboxOf(seedOaiRecords({ count: 3_000 }));
  const dir = await Deno.makeTempDir();
  const state = `${dir}/harvest.json`;
  const endpoint = `${sandbox.url}/${SITE}/api/oai`;
  /** The window of every list request a client sends (`from until`), tokens aside. */
  const asked = (into: string[]): typeof fetch => (input, init) => {
    const query = new URL(String(input)).searchParams;
    if (query.get("verb") === "ListRecords") {
      into.push(
        query.has("resumptionToken") ? "token" : `${query.get("from")} ${query.get("until")}`,
      );
    }
    return fetch(input, init);
  };
  try {
    const full = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    // The first run fails as soon as the state file says a window is finished, with no retry.
    const first: string[] = [];
    const someDone = () => {
      try {
        const windows = JSON.parse(Deno.readTextFileSync(state)).windows ?? [];
        return windows.some((w: { done: boolean }) => w.done);
      } catch {
        return false;
      }
    };
    const failing: typeof fetch = (input, init) =>
      someDone() && new URL(String(input)).searchParams.get("verb") === "ListRecords"
        ? Promise.reject(new TypeError("connection reset"))
        : asked(first)(input, init);
    await assert.rejects(
      new OaiPmh(endpoint, { ...quiet, concurrency: 4, retry: false, fetch: failing })
        .harvest({ state }),
      /Cannot reach the service/,
    );
    // What the state file says was finished, read from the file itself.
    const saved = JSON.parse(await Deno.readTextFile(state));
    const finished =
      (saved.windows as { from: string | null; until: string | null; done: boolean }[])
        .filter((w) => w.done).map((w) => `${w.from} ${w.until}`);
    assert.ok(finished.length >= 1, "a window finished before the failure");
    assert.ok(finished.length < saved.windows.length, "and not all of them");

    const second: string[] = [];
    const table = await new OaiPmh(endpoint, { ...quiet, concurrency: 4, fetch: asked(second) })
      .harvest({ state });
    assert.equal(tableDigest(table).sha256, tableDigest(full).sha256);
    for (const window of finished) assert.ok(!second.includes(window), `${window} asked again`);
    const wholeRun: string[] = [];
    await new OaiPmh(endpoint, { ...quiet, concurrency: 4, fetch: asked(wholeRun) }).harvest();
    assert.ok(second.length < wholeRun.length, `${second.length} of ${wholeRun.length} requests`);
    // Complete: not in progress, the high-water mark kept, the window spools gone.
    const done = JSON.parse(await Deno.readTextFile(state));
    assert.equal(done.inProgress, false);
    assert.ok(done.highWater);
    const left = [...Deno.readDirSync(dir)].map((entry) => entry.name);
    assert.deepEqual(left, ["harvest.json"]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without a concurrency of its own, a harvest reads one list, in the repository's order", async () => {
  // Listed newest first: windows joined in time order would give another row order.
  const records = seedOaiRecords({ count: 1_200 }).reverse();
  const sandbox = sandboxOf(records);
  const lists: string[] = [];
  const counting: typeof fetch = (input, init) => {
    const query = new URL(String(input)).searchParams;
    if (query.get("verb") === "ListRecords") {
      lists.push(
        query.has("resumptionToken") ? "token" : `${query.get("from")} ${query.get("until")}`,
      );
    }
    return fetch(input, init);
  };
  try {
    const endpoint = `${sandbox.url}/${SITE}/api/oai`;
    const table = await new OaiPmh(endpoint, { ...quiet, fetch: counting }).harvest();
    assert.deepEqual(lists.filter((list) => list !== "token"), ["null null"], "one list");
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
    assert.equal(table.numRows(), 1_200);
  } finally {
    await sandbox.close();
  }
});
