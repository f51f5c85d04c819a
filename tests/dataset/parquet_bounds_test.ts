/**
 * `tableFromParquet` with bounds, as verify and reproduce read a stranger's
 * tables: a file whose footer declares more cells or bytes than the bounds
 * is refused before a page is decoded, a footer that declares fewer rows
 * than its pages hold gives only those rows, and a table within the bounds
 * comes back whole, an empty one too.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { parquetShape, tableFromParquet, tableToParquet } from "../../lib/dataset/parquet.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { lyingFooter, parquetBomb } from "../adversarial/_parquet_bombs.ts";

const BOUNDS = { maxCells: 1_000_000, maxBytes: 64 * 1024 * 1024 };

Deno.test("a Parquet bomb is refused from its footer: millions of rows in kilobytes", async () => {
  const bomb = await parquetBomb(5_000_000);
  assert.ok(bomb.length < 100_000, `the bomb is ${bomb.length} bytes`);
  const shape = await parquetShape(bomb);
  assert.deepEqual([shape.rows, shape.columns], [5_000_000, 1]);
  await assert.rejects(
    tableFromParquet(bomb, { bounds: BOUNDS }),
    (error: Error) =>
      error instanceof TidepoolError &&
      /too large to read: its footer declares 5000000 rows of 1 columns, more than 1000000 cells/
        .test(error.message),
  );
  // Wide tables count by cells: 400,000 rows of 3 columns pass 1,000,000 cells.
  const wide = await tableToParquet(
    aq.table({
      a: new Int32Array(400_000),
      b: new Int32Array(400_000),
      c: new Int32Array(400_000),
    }),
  );
  await assert.rejects(tableFromParquet(wide, { bounds: BOUNDS }), /400000 rows of 3 columns/);
});

Deno.test("a footer that declares fewer rows than its pages hold gives only the rows it declares", async () => {
  const liar = await lyingFooter(1_000_000, 10);
  assert.equal((await parquetShape(liar)).rows, 10);
  // Without bounds the decoder reads every page: the file is what it seems to test.
  assert.equal((await tableFromParquet(liar)).numRows(), 1_000_000);
  const table = await tableFromParquet(liar, { bounds: BOUNDS });
  assert.equal(table.numRows(), 10);
});

Deno.test("a footer that declares more bytes than the bound is refused; within bounds a table comes back whole", async () => {
  const long = await tableToParquet(
    aq.table({ text: Array.from({ length: 50 }, (_, i) => `${i}`.repeat(20_000)) }),
  );
  await assert.rejects(
    tableFromParquet(long, { bounds: { maxCells: 1_000, maxBytes: 100_000 } }),
    /its footer declares \d+ bytes of column data, more than 100000/,
  );
  const back = await tableFromParquet(long, { bounds: { maxCells: 1_000, maxBytes: 10_000_000 } });
  assert.equal(back.numRows(), 50);
  assert.equal(back.get("text", 49), "49".repeat(20_000));
  const empty = await tableFromParquet(
    await tableToParquet(aq.table({ n: [] as number[], s: [] as string[] })),
    { bounds: BOUNDS },
  );
  assert.deepEqual(empty.columnNames(), ["n", "s"]);
  assert.equal(empty.numRows(), 0);
});
