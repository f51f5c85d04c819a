/**
 * Repositories that list by identifier in an order other than code
 * points: case-insensitively (MySQL's default collations) or numbers by
 * value (an integer key). The windowed table should be the one list's,
 * row for row. Both fail: see the note on each.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { tableDigest } from "../../../lib/table/mod.ts";
import { type OrderedRecord, startOrderedServer } from "./_ordered_server.ts";

const quiet = { progress: false as const, warn: () => {} };

const rec = (id: string, day: string): OrderedRecord => ({
  identifier: `oai:x:${id}`,
  datestamp: `${day}T00:00:00Z`,
});

/** Windows at 2 and 4 lists against the one list, row for row. */
async function sameAsOneList(
  records: OrderedRecord[],
  compare: (a: OrderedRecord, b: OrderedRecord) => number,
) {
  await using server = startOrderedServer(records, compare);
  const one = await new OaiPmh(server.url, { ...quiet, concurrency: 1 }).harvest();
  assert.equal(one.numRows(), records.length);
  for (const concurrency of [2, 4]) {
    const table = await new OaiPmh(server.url, { ...quiet, concurrency }).harvest();
    assert.deepEqual(table.array("identifier"), one.array("identifier"), `at ${concurrency}`);
    assert.equal(tableDigest(table).sha256, tableDigest(one).sha256);
  }
}

const RECORDS = [
  rec("a1", "2020-06-01"),
  rec("B1", "2020-03-01"),
  rec("r9", "2022-06-01"),
  rec("r10", "2022-03-01"),
  rec("c2", "2024-06-01"),
  rec("D2", "2024-03-01"),
  rec("r8", "2026-01-01"),
  rec("r11", "2025-09-01"),
];

// Needs the windows' comparator found among those a store uses (code point, case-folded,
// numbers by value), the one every window rises by; where several fit, asked of the
// repository as undecided windows are. Left ignored: not a small fix.
Deno.test({
  name: "a repository listing identifiers case-insensitively: the one list's row order",
  ignore: true,
  fn: () =>
    sameAsOneList(RECORDS, (a, b) => {
      const [x, y] = [a.identifier.toLowerCase(), b.identifier.toLowerCase()];
      return x < y ? -1 : x > y ? 1 : 0;
    }),
});

Deno.test({
  name: "a repository listing identifiers with numbers by value: the one list's row order",
  ignore: true,
  fn: () =>
    sameAsOneList(
      RECORDS,
      (a, b) =>
        a.identifier.localeCompare(b.identifier, "en", { numeric: true, caseFirst: "upper" }),
    ),
});
