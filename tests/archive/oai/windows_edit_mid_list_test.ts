/**
 * A record edited while the windows are read leaves its window for the
 * last one. A repository whose tokens say where the next page starts (as
 * Catmandu's do) then moves the records after it up by one: the window's
 * next page starts one record late. The one list, whose records stay, loses
 * none; the windowed harvest must lose none either.
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { type OrderedRecord, startOrderedServer } from "./_ordered_server.ts";

const quiet = { progress: false as const, warn: () => {} };

const byIdentifier = (a: OrderedRecord, b: OrderedRecord) =>
  a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0;
const byDatestamp = (a: OrderedRecord, b: OrderedRecord) =>
  a.datestamp < b.datestamp ? -1 : a.datestamp > b.datestamp ? 1 : byIdentifier(a, b);

/** Six records in 2020, two in 2025. */
function records(): OrderedRecord[] {
  return Array.from({ length: 8 }, (_, i) => ({
    identifier: `oai:x:r${i}`,
    datestamp: i < 6 ? `2020-0${i + 1}-01T00:00:00Z` : `2025-0${i}-01T00:00:00Z`,
  }));
}

for (
  const [order, compare] of [["identifier", byIdentifier], ["datestamp", byDatestamp]] as const
) {
  for (const edited of [0, 1]) {
    Deno.test(`listed by ${order}: record ${edited} of the first page edited mid-list, none lost`, async () => {
      // One list by datestamp loses the record too (its next page starts late); by identifier not.
      for (const concurrency of order === "identifier" ? [1, 2, 4] : [2, 4]) {
        const list = records();
        await using server = startOrderedServer(list, compare);
        let done = false;
        // When the list holding the 2020 records asks for its second page, edit a record
        // of its first page: stamped now, it moves to the last window.
        server.onList = (start, _from, until) => {
          if (done || start !== 2 || (until !== "" && until < "2020-07-01")) return;
          done = true;
          list[edited] = { ...list[edited], datestamp: "2026-11-01T00:00:00Z" };
        };
        const table = await new OaiPmh(server.url, { ...quiet, concurrency }).harvest();
        assert.ok(done, `at ${concurrency}: the edit happened`);
        const ids = (table.array("identifier") as string[]).slice().sort();
        assert.deepEqual(ids, records().map((r) => r.identifier), `at ${concurrency}`);
      }
    });
  }
}
