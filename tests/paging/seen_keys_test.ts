import assert from "node:assert/strict";
import { SeenKeys } from "../../lib/paging/_seen_keys.ts";

/** Admits keys page by page, compacting between pages as a harvest does. */
async function admitPages(seen: SeenKeys, keys: [string, number][], pageSize: number) {
  const admitted: string[] = [];
  for (let i = 0; i < keys.length; i += pageSize) {
    for (const [key, version] of keys.slice(i, i + pageSize)) {
      if (seen.admit(key, version)) admitted.push(key);
    }
    await seen.compact();
  }
  return admitted;
}

const ids = (from: number, to: number): [string, number][] =>
  Array.from({ length: to - from }, (_, i) => [`oai:x:${from + i}`, 1000 + from + i]);

Deno.test("a key repeated far apart, long after its block was frozen, is still dropped", async () => {
  const seen = new SeenKeys({ blockSize: 50 });
  const first = ids(0, 1000);
  // Every key again, from the start (a harvest restarted from its window's start).
  const admitted = await admitPages(seen, [...first, ...first, ["oai:x:3", 1003]], 30);
  assert.equal(admitted.length, 1000);
  assert.deepEqual(admitted, first.map(([key]) => key));
  assert.ok(seen.frozenBytes > 0, "the keys were frozen into blocks");
});

Deno.test("a later version of a frozen key is admitted once; an earlier one is dropped", async () => {
  const seen = new SeenKeys({ blockSize: 10 });
  await admitPages(seen, ids(0, 100), 10);
  assert.equal(seen.admit("oai:x:5", 1005), false);
  assert.equal(seen.admit("oai:x:5", 999), false);
  assert.equal(seen.admit("oai:x:5", 5000), true);
  await admitPages(seen, ids(100, 200), 10);
  assert.equal(seen.admit("oai:x:5", 5000), false);
  assert.equal(seen.admit("oai:x:5", 4000), false);
  assert.equal(seen.admit("oai:x:5", 6000), true);
  assert.equal(seen.admit("oai:x:5", 6000), false);
});

Deno.test("keys whose hashes collide are told apart by the key itself, never dropped", async () => {
  const seen = new SeenKeys({ blockSize: 7, hash: (key) => [key.length, 0] });
  const keys = ids(0, 500);
  assert.equal((await admitPages(seen, keys, 9)).length, 500);
  assert.equal((await admitPages(seen, keys, 9)).length, 0);
  assert.equal(seen.admit("oai:x:500", 1500), true);
  // A hash of 0 (the empty slot's mark) still finds its keys.
  const zero = new SeenKeys({ blockSize: 3, hash: () => [0, 0] });
  assert.equal((await admitPages(zero, keys.slice(0, 20), 4)).length, 20);
  assert.equal((await admitPages(zero, keys.slice(0, 20), 4)).length, 0);
});

Deno.test("keys with any characters, records without a datestamp", async () => {
  const seen = new SeenKeys({ blockSize: 2 });
  const odd = ["a:1\n2", "12:x", "日本\t語", "", "3:abc"];
  for (const key of odd) assert.equal(seen.admit(key, -Infinity), true);
  await seen.compact();
  for (const key of odd) assert.equal(seen.admit(key, -Infinity), false, key);
  assert.equal(seen.admit("a:1", -Infinity), true);
});

Deno.test("a million identifiers are held in under 20 bytes each", async () => {
  const seen = new SeenKeys();
  for (let page = 0; page < 2000; page++) {
    for (let i = 0; i < 500; i++) {
      const n = page * 500 + i;
      seen.admit(
        `oai:archive.example:acme/large/r-${String(n).padStart(7, "0")}`,
        1.7e12 + n * 977_000,
      );
    }
    await seen.compact();
  }
  assert.equal(seen.size, 1_000_000);
  assert.ok(seen.frozenBytes < 20 * 1_000_000, `${seen.frozenBytes} bytes`);
});

Deno.test("has() finds a frozen key at any version and records nothing", async () => {
  const seen = new SeenKeys({ blockSize: 4 });
  await admitPages(seen, ids(0, 20), 5);
  assert.equal(seen.has("oai:x:2"), true);
  assert.equal(seen.has("oai:x:20"), false);
  assert.equal(seen.has("oai:x:20"), false);
  assert.equal(seen.size, 20);
  assert.equal(seen.admit("oai:x:20", 0), true);
});
