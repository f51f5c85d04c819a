/**
 * Windowed harvests against the real Catmandu OAI-PMH provider when record
 * identifiers do not rise with datestamps (records edited after others
 * were added), a third stamped in one second (a bulk load): the windows
 * together give the same rows as the one list, each once, within the cap
 * counted at a gate, and an interrupted harvest resumed gives them too.
 *
 * Catmandu lists a window by identifier, not by datestamp: the windows are
 * merged by identifier, which gives its one list's row order too (the last
 * test; docs/ASSUMPTIONS.md, "OAI-PMH list order").
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { failingOn } from "./_failing_fetch.ts";
import { startNetworkGate } from "../../../bench/_network_gate.ts";
import { type ProviderRecord, startProvider } from "./_provider_records.ts";

const quiet = { progress: false as const, warn: () => {} };

/** `count` records whose identifiers fall as their datestamps rise; every third in one second. */
function records(count: number): ProviderRecord[] {
  const start = Date.UTC(2020, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const ms = i % 3 === 0
      ? Date.UTC(2024, 4, 12)
      : start + Math.floor(((count - i) * 6 * 365 * 86_400_000) / count);
    return {
      _id: `w${String(i).padStart(4, "0")}`,
      datestamp: new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
      sets: [i % 2 ? "letters" : "maps"],
      title: [`Record ${i}`],
    };
  });
}

/** The table's rows by identifier: the same rows in any order give the same digest. */
const rows = (table: ColumnTable) => tableDigest(table.orderby("identifier")).sha256;

const OPTIONS = [
  {},
  { verb: "ListIdentifiers" as const },
  { from: "2022-01-01T10:00:00Z", until: "2025-01-01T00:00:00Z" },
  { set: "maps", from: "2023-01-01" },
];

Deno.test("real provider, identifiers not in datestamp order: the one list's rows, each once", async () => {
  await using provider = await startProvider(records(900), 25);
  const gate = startNetworkGate(provider.url.replace(/\/oai$/, ""));
  const dir = await Deno.makeTempDir();
  try {
    const endpoint = `${gate.url}/oai`;
    for (const options of OPTIONS) {
      const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest(options);
      gate.inFlight.max = 0;
      const table = await new OaiPmh(endpoint, { ...quiet, concurrency: 4 }).harvest(options);
      const label = JSON.stringify(options);
      const ids = table.array("identifier") as string[];
      assert.equal(new Set(ids).size, ids.length, `${label}: a record twice`);
      assert.equal(rows(table), rows(one), label);
      assert.ok(gate.inFlight.max <= 4, `${label}: ${gate.inFlight.max} in flight`);
    }
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    for (const failAt of [6, 12, 20]) {
      const state = `${dir}/harvest-${failAt}.json`;
      const failing = failingOn(failAt + 1);
      await assert.rejects(
        new OaiPmh(endpoint, { ...quiet, concurrency: 4, retry: false, fetch: failing })
          .harvest({ state }),
      );
      const table = await new OaiPmh(endpoint, { ...quiet, concurrency: 4 }).harvest({ state });
      assert.equal(rows(table), rows(one), `resumed after list request ${failAt}`);
    }
  } finally {
    await gate.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("real provider, identifiers not in datestamp order: the one list's row order", async () => {
  await using provider = await startProvider(records(900), 25);
  for (const options of OPTIONS) {
    for (const concurrency of [4, 8]) {
      const one = await new OaiPmh(provider.url, { ...quiet, concurrency: 1 }).harvest(options);
      const table = await new OaiPmh(provider.url, { ...quiet, concurrency }).harvest(options);
      const label = `${concurrency} lists ${JSON.stringify(options)}`;
      assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, label);
    }
  }
});
