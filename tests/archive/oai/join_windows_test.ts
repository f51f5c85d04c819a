/**
 * Windows joined in the repository's own order: by datestamp when each
 * window lists so (or could), merged by identifier when each lists by
 * identifier and not all by datestamp, else in time order.
 */

import assert from "node:assert/strict";
import { joinWindows, keepingLeftOut, undecided } from "../../../lib/archive/oai/_join_windows.ts";
import type { OaiRecord } from "../../../lib/archive/oai/types.ts";

/** A record `id` stamped `day` days into 2024. */
function record(id: string, day: number): OaiRecord {
  const datestamp = new Date(Date.UTC(2024, 0, 1 + day));
  return {
    identifier: `oai:x:${id}`,
    datestamp,
    datestampText: datestamp.toISOString(),
    setSpec: [],
    deleted: false,
    metadata: {},
  };
}

const ids = (records: OaiRecord[]) => records.map((r) => r.identifier.slice(6)).join(" ");

Deno.test("windows listed by datestamp are joined in time order", () => {
  const early = [record("d", 1), record("a", 2)];
  const late = [record("c", 10), record("b", 11)];
  assert.equal(ids(joinWindows([early, late])), "d a c b");
});

Deno.test("windows listed by identifier (Catmandu) are merged by identifier, as its one list", () => {
  const early = [record("b", 3), record("d", 1)];
  const late = [record("a", 12), record("c", 10), record("e", 11)];
  assert.equal(ids(joinWindows([early, late])), "a b c d e");
  // A record listed again in a later window after an edit comes from the earlier one first.
  const moved = [record("b", 3), record("d", 1)];
  const again = [record("a", 12), record("b", 13), record("c", 10)];
  const joined = joinWindows([moved, again]);
  assert.equal(ids(joined), "a b b c d");
  assert.equal(joined[1].datestamp?.getUTCDate(), 4);
});

Deno.test("windows that could be either keep time order; a window in neither order too", () => {
  // Each window rises both ways: the order every earlier version gave.
  const both = [[record("c", 1), record("d", 2)], [record("a", 10), record("b", 11)]];
  assert.equal(ids(joinWindows(both)), "c d a b");
  // The repository, asked about the last of one window and the first of the next, decides.
  assert.deepEqual(undecided(both)?.map((r) => r.identifier), ["oai:x:d", "oai:x:a"]);
  assert.equal(ids(joinWindows(both, "identifier")), "a b c d");
  assert.equal(ids(joinWindows(both, "datestamp")), "c d a b");
  // Windows that tell, or whose two orders agree, ask nothing.
  assert.equal(undecided([[record("a", 1), record("b", 2)], [record("c", 10)]]), undefined);
  assert.equal(undecided([[record("b", 3), record("d", 1)], [record("a", 12)]]), undefined);
  // One window in neither order: time order, the same rows.
  const neither = [[record("b", 2), record("a", 3), record("c", 1)], [record("d", 10)]];
  assert.equal(ids(joinWindows(neither)), "b a c d");
  assert.deepEqual(joinWindows([]), []);
});

Deno.test("identifiers compare by code point, as Perl, SQL binary collations and MongoDB do", () => {
  // U+E000..U+FFFF come before U+10000 and above by code point; JavaScript's `<` says after.
  for (const high of ["\uE000", "\uFF21", "\uFFFD", "\uFFFF"]) {
    for (const astral of ["\u{10000}", "\u{1F600}", "\u{10FFFF}"]) {
      const label = `U+${high.codePointAt(0)!.toString(16)} U+${
        astral.codePointAt(0)!.toString(16)
      }`;
      // A window listing the two in code point order is a window listed by identifier.
      const within = [[record("m", 3), record("z", 1)], [record(high, 12), record(astral, 13)]];
      assert.equal(ids(joinWindows(within)), `m z ${high} ${astral}`, label);
      // Windows that each rise either way are merged in code point order.
      const across = [[record("k", 2), record(astral, 1)], [record("a", 12), record(high, 10)]];
      assert.equal(ids(joinWindows(across)), `a k ${high} ${astral}`, label);
    }
  }
});

Deno.test("a window read again keeps what only its first reading had, where it was", () => {
  const first = [record("a", 1), record("b", 2), record("d", 4)];
  const second = [record("a", 1), record("c", 3), record("d", 4), record("e", 5)];
  assert.equal(ids(keepingLeftOut(first, second)), "a b c d e");
  assert.equal(ids(keepingLeftOut([record("z", 1)], second)), "z a c d e");
  assert.equal(ids(keepingLeftOut(second, [])), "a c d e");
});
