import assert from "node:assert/strict";
import { idHash, SeenIds } from "../../lib/expressions/_seen_ids.ts";

/** Two different ids with one hash, found by the birthday bound (about 2^15 tries). */
function collidingPair(): [string, string] {
  const byHash = new Map<number, string>();
  for (let i = 0;; i++) {
    const id = `id-${i}`;
    const other = byHash.get(idHash(id));
    if (other !== undefined) return [other, id];
    byHash.set(idHash(id), id);
  }
}

Deno.test("SeenIds keeps two ids that share a hash, and skips each one's repeat", () => {
  const [a, b] = collidingPair();
  assert.notEqual(a, b);
  assert.equal(idHash(a), idHash(b));
  const seen = new SeenIds();
  assert.equal(seen.add(a), true);
  assert.equal(seen.add(b), true, "a colliding id is new");
  assert.equal(seen.add(a), false);
  assert.equal(seen.add(b), false);
  assert.equal(seen.add("other"), true);
  assert.equal(seen.size, 3);
});

Deno.test("SeenIds agrees with a Set on 100,000 ids with repeats", () => {
  const seen = new SeenIds();
  const set = new Set<string>();
  for (let i = 0; i < 100_000; i++) {
    const id = `x${(i * 7919) % 60_000}`;
    const before = set.size;
    set.add(id);
    assert.equal(seen.add(id), set.size !== before, id);
  }
  assert.equal(seen.size, set.size);
});
