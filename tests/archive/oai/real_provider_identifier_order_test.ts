/**
 * The row order of a windowed harvest against the real Catmandu provider
 * when its identifier order is not what JavaScript's `<` gives, or when
 * every window rises both by identifier and by datestamp: the table must
 * be the one list's, digest for digest (docs/ASSUMPTIONS.md, "OAI-PMH list
 * order").
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import type { HarvestOptions } from "../../../lib/archive/oai/types.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { type ProviderRecord, startProvider } from "./_provider_records.ts";

const quiet = { progress: false as const, warn: () => {} };

/** A record `_id` stamped at `iso` (a date, given to the second). */
const rec = (_id: string, iso: string): ProviderRecord => ({
  _id,
  datestamp: `${iso}T00:00:00Z`,
  title: [`Record ${_id}`],
});

/** The one list's ids and digest against the windowed harvest's, at several concurrencies. */
async function sameAsOneList(list: ProviderRecord[], label: string, options: HarvestOptions = {}) {
  await using provider = await startProvider(list, 2);
  const one = await new OaiPmh(provider.url, { ...quiet, concurrency: 1 }).harvest(options);
  assert.ok(one.numRows() > 1);
  for (const concurrency of [2, 4]) {
    const table = await new OaiPmh(provider.url, { ...quiet, concurrency }).harvest(options);
    const at = `${label} ${JSON.stringify(options)} at ${concurrency}`;
    assert.deepEqual(table.array("identifier"), one.array("identifier"), at);
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256, at);
  }
}

Deno.test("real provider: identifiers past U+FFFF in its (code point) order, not JavaScript's", async () => {
  // Perl, SQL binary collations, MongoDB and Lucene compare code points (UTF-8 bytes):
  // U+FF21, U+E000 and U+FFFD come before U+1F600 there, after it for JavaScript's `<`.
  for (const high of ["\uFF21", "\uE000", "\uFFFD"]) {
    const list = [
      rec("a1", "2020-06-01"),
      rec("k1", "2020-03-01"),
      rec(`${high}x`, "2022-01-01"),
      rec("\u{1F600}x", "2022-05-01"),
      rec("b3", "2024-01-01"),
      rec("m3", "2023-11-01"),
      rec("c4", "2026-01-01"),
      rec("j4", "2025-12-01"),
    ];
    await sameAsOneList(list, `U+${high.codePointAt(0)!.toString(16)}`);
  }
});

Deno.test("real provider: windows that each rise by datestamp and identifier, listed by identifier", async () => {
  // One record a window: each window could be either order, yet the one list is by identifier.
  await sameAsOneList(
    [
      rec("d", "2020-06-01"),
      rec("c", "2022-03-01"),
      rec("b", "2024-01-01"),
      rec("a", "2025-09-01"),
    ],
    "one record a window",
  );
  // Identifiers given in time order, one old record edited lately (alone in the last window).
  const sequential = Array.from(
    { length: 9 },
    (_, i) => rec(`r${i}`, `${2020 + Math.floor(i / 2)}-0${1 + (i % 2) * 4}-01`),
  );
  sequential[2] = rec("r2", "2026-06-01");
  await sameAsOneList(sequential, "an old record edited lately");
  // The same with a deleted record, headers only, and a set.
  sequential[5] = { ...rec("r5", "2026-07-01"), deleted: true };
  for (const [i, r] of sequential.entries()) r.sets = [i % 3 === 1 ? "letters" : "maps"];
  await sameAsOneList(sequential, "deleted", { verb: "ListIdentifiers" });
  await sameAsOneList(sequential, "deleted", { set: "maps" });
});

Deno.test("a repository listing by datestamp, one record a window: still its time order", async () => {
  const { startOaiSandbox } = await import("../../../lib/sandbox/archive/oai/mod.ts");
  // Identifiers fall as datestamps rise; the sandbox lists in datestamp order.
  const stamps = ["2020-06-01", "2022-03-01", "2024-01-01", "2025-09-01"];
  const records = stamps.map((day, i) => ({
    identifier: `oai:archive.example:acme/letters/r-${9 - i}`,
    slug: `r-${9 - i}`,
    datestamp: `${day}T00:00:00Z`,
    setSpec: ["letters"],
    dc: { title: [`Record ${i}`] },
  }));
  const sandbox = startOaiSandbox({ sites: { "acme/letters": { records, repository: {} } } });
  try {
    const endpoint = `${sandbox.url}/acme/letters/api/oai`;
    const one = await new OaiPmh(endpoint, { ...quiet, concurrency: 1 }).harvest();
    assert.equal(one.numRows(), 4);
    for (const concurrency of [2, 4]) {
      const table = await new OaiPmh(endpoint, { ...quiet, concurrency }).harvest();
      assert.deepEqual(table.array("identifier"), one.array("identifier"), `at ${concurrency}`);
    }
  } finally {
    await sandbox.close();
  }
});
