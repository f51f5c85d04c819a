/**
 * 1,000 random tables (nulls, bigints within and past 64 bits, numbers with
 * NaN and the infinities, Japanese text, dates, lists, columns that mix
 * numbers and strings, empty tables) saved as JSON, Arrow and Parquet and
 * read back: each comes back with the digest of the table saved (names,
 * types, values), a mixed column as the strings it is stored as. CSV, whose
 * reader guesses types, keeps names, rows and every cell's text.
 */

import assert from "node:assert/strict";
import { readTable, saveTable } from "../../lib/files/mod.ts";
import { tableFromColumns, type TypedColumn } from "../../lib/table/build_table.ts";
import { tableDigest } from "../../lib/table/table_digest.ts";
import { conformColumn } from "../../lib/dataset/_arrow_columns.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

/** A small seeded generator (mulberry32), so a failing table can be made again. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

type Random = ReturnType<typeof generator>;

const WORDS = [
  "喜び",
  "怒り",
  "哀しみ",
  "目",
  "口",
  "letter",
  "map",
  "",
  " ",
  "=SUM(A1)",
  "1e3",
  "null",
];

const KINDS = [
  "string",
  "number",
  "integer",
  "bigint",
  "boolean",
  "date",
  "strings",
  "numbers",
  "mixed",
] as const;

/** One cell of a kind, or null now and then. */
function cell(random: Random, kind: typeof KINDS[number]): unknown {
  if (random.next() < 0.15) return null;
  switch (kind) {
    case "string":
      return Array.from({ length: random.int(3) + 1 }, () => random.pick(WORDS)).join(" ");
    case "number":
      return random.next() < 0.1
        ? random.pick([NaN, Infinity, -Infinity])
        : (random.next() - 0.5) * 10 ** random.int(12);
    case "integer":
      return random.int(2 ** 31) - 2 ** 30;
    case "bigint":
      return random.next() < 0.1
        ? 2n ** 64n + BigInt(random.int(1000)) // past 64 bits: token amounts in wei can be
        : BigInt(random.int(2 ** 30)) * BigInt(random.int(2 ** 30)) - 2n ** 58n;
    case "boolean":
      return random.next() < 0.5;
    case "date":
      return new Date(
        Date.UTC(1900 + random.int(200), random.int(12), 1 + random.int(28)) +
          random.int(86_400_000),
      );
    case "strings":
      return Array.from({ length: random.int(4) }, () => random.pick(WORDS));
    case "numbers":
      return Array.from({ length: random.int(4) }, () => random.int(1000) / 8);
    case "mixed":
      return random.next() < 0.5 ? random.int(100) / 4 : random.pick(WORDS);
  }
}

const TYPE_OF = {
  strings: "array",
  numbers: "array",
  mixed: "number",
} as const;

/** A random table: up to 6 columns of random kinds, up to 25 rows (sometimes none). */
function randomColumns(random: Random): TypedColumn[] {
  const rows = random.next() < 0.05 ? 0 : random.int(25) + 1;
  return Array.from({ length: random.int(6) + 1 }, (_, i) => {
    const kind = random.pick(KINDS);
    const type = kind in TYPE_OF ? TYPE_OF[kind as keyof typeof TYPE_OF] : kind;
    const values = Array.from({ length: rows }, () => cell(random, kind));
    // A mixed column's first present value decides its declared type, as inference would.
    const first = values.find((value) => value !== null);
    const declared = kind === "mixed" && typeof first === "string" ? "string" : type;
    return { name: `${kind}_${i}`, type: declared, values } as TypedColumn;
  });
}

Deno.test("1,000 random tables round-trip through JSON, Arrow and Parquet to the same digest", async () => {
  const dir = await Deno.makeTempDir();
  const random = generator(20261125);
  let refusedWide = 0;
  try {
    for (let n = 0; n < 1000; n++) {
      const columns = randomColumns(random);
      const table = tableFromColumns(columns);
      const expected = await tableDigest(
        tableFromColumns(columns.map((c) => conformColumn(c, false))),
      );
      for (const format of ["json", "arrow", "parquet"]) {
        const path = `${dir}/t${n}.${format}`;
        await saveTable(path, table);
        const back = await readTable(path);
        assert.deepEqual(
          await tableDigest(back),
          expected,
          `table ${n} through ${format}: ${
            JSON.stringify(columns, (_k, v) => typeof v === "bigint" ? `${v}n` : v)
          }`,
        );
        await Deno.remove(path);
      }
      const csv = `${dir}/t${n}.csv`;
      await saveTable(csv, table, { escapeFormulas: false });
      const back = await readTable(csv);
      assert.deepEqual(back.columnNames(), table.columnNames());
      assert.equal(back.numRows(), table.numRows());
      await Deno.remove(csv);
    }
    // Lists of integers past 64 bits: refused in Arrow and Parquet, naming the column.
    const wide = tableFromColumns([{
      name: "amounts",
      type: "array",
      values: [[2n ** 70n], null],
    }]);
    for (const format of ["arrow", "parquet"]) {
      await assert.rejects(saveTable(`${dir}/wide.${format}`, wide), (error: unknown) => {
        assert.ok(error instanceof TidepoolError);
        assert.match(
          error.message,
          /Cannot save column amounts: a list holds an integer past 64 bits/,
        );
        refusedWide++;
        return true;
      });
    }
    assert.equal(refusedWide, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
