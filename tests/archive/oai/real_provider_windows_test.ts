/**
 * Windowed harvests (several lists in flight) against the real Catmandu
 * OAI-PMH provider: the from/until windows, cut where the records are
 * dense, together give every record exactly once, the same table as the
 * one list, within the cap counted at a gate in front of the provider.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { type GateTrace, startNetworkGate } from "../../../bench/_network_gate.ts";
import { oaiId, type ProviderRecord, startProvider } from "./_provider_records.ts";

/** `count` records over six years, the last `busy` share in one month. */
function records(count: number, busy: number): ProviderRecord[] {
  const start = Date.UTC(2020, 0, 1);
  const recent = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const ms = i < count * (1 - busy)
      ? start + Math.floor((i * 6 * 365 * 86_400_000) / count)
      : recent + i * 60_000;
    return {
      _id: `w${String(i).padStart(4, "0")}`,
      datestamp: new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
      sets: [i % 3 ? "letters" : "maps"],
      title: [`Record ${i}`],
    };
  });
}

Deno.test("real provider: windows together give every record once, the one-list table", async () => {
  const list = records(900, 0.6);
  await using provider = await startProvider(list, 25);
  const trace: GateTrace[] = [];
  const gate = startNetworkGate(provider.url.replace(/\/oai$/, ""), { trace });
  try {
    const endpoint = `${gate.url}/oai`;
    const one = await new OaiPmh(endpoint, { progress: false, concurrency: 1 }).harvest();
    assert.equal(one.numRows(), list.length);
    for (const concurrency of [3, 4, 8]) {
      for (const options of [{}, { set: "maps" }, { from: "2023-01-01" }]) {
        trace.length = 0;
        gate.inFlight.max = 0;
        const label = `concurrency ${concurrency} ${JSON.stringify(options)}`;
        const table = await new OaiPmh(endpoint, { progress: false, concurrency }).harvest(options);
        const asked = trace.map((t) => t.query);
        const alone = await new OaiPmh(endpoint, { progress: false, concurrency: 1 })
          .harvest(options);
        const ids = table.array("identifier") as string[];
        assert.equal(new Set(ids).size, ids.length, `${label}: a record twice`);
        assert.equal(tableDigest(table).sha256, tableDigest(alone).sha256, label);
        assert.ok(gate.inFlight.max <= concurrency, `${label}: ${gate.inFlight.max} in flight`);
        const windows = asked.filter((q) => /[?&]until=/.test(q) && !/resumptionToken/.test(q));
        assert.ok(windows.length > 1, `${label}: ${windows.length} windows`);
      }
    }
    assert.ok(
      (one.array("identifier") as string[]).includes(oaiId("w0899")),
      "the last record of the busy month",
    );
  } finally {
    await gate.close();
  }
});
