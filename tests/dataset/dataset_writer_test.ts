import assert from "node:assert/strict";
import { DatasetWriter, writeDataset } from "../../lib/dataset/dataset_writer.ts";
import { query } from "../../lib/dataset/query.ts";
import { defineSchema } from "../../lib/table/schema.ts";
import { columnTypes, tableFromColumns } from "../../lib/table/build_table.ts";
import { readTable } from "../../lib/files/read_table.ts";

const schema = defineSchema<{ id: string; when: string; set?: string }>([
  { name: "id", type: "string" },
  { name: "when", type: "date" },
]);

Deno.test("A dataset writer will not touch a folder of someone else's Parquet files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/theirs.parquet`, "PAR1");
    await assert.rejects(
      DatasetWriter.open(dir, { schema }),
      /Cannot write a dataset into .*: it holds Parquet files tidepool did not write \(theirs\.parquet\)/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/theirs.parquet`), "PAR1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Reopening removes files written after the last checkpoint and unfinished writes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeDataset(
      (async function* () {
        yield [{ id: "a", when: "2026-01-01" }];
      })(),
      dir,
      { schema },
    );
    await Deno.writeTextFile(`${dir}/part-000009-deadbeef.parquet`, "not committed");
    await Deno.writeTextFile(`${dir}/.part-000010-deadbeef.parquet.0123abcd.part`, "half");
    const writer = await DatasetWriter.open(dir, { schema });
    const summary = await writer.close();
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["_tidepool_checkpoint.json", ...summary.files].sort());
    assert.equal(summary.rows, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Partition values are escaped as Spark does and read back by DuckDB", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sets = ["type:letter", "a/b", "50%", "", "東京"];
    const summary = await writeDataset(
      (async function* () {
        yield sets.map((set, i) => ({ id: `r${i}`, when: "2026-03-04T05:06:07Z", set }));
      })(),
      dir,
      { schema, partitionBy: [{ name: "set", value: (r) => r.set }], flushRows: 2 },
    );
    assert.ok(summary.files.includes("set=type%3Aletter/" + summary.files[0].split("/")[1]));
    assert.ok(summary.files.some((f) => f.startsWith("set=__HIVE_DEFAULT_PARTITION__/")));
    const table = await query('SELECT id, set, "when" FROM d ORDER BY id', {
      views: { d: dir },
    });
    assert.deepEqual(table.array("set"), ["type:letter", "a/b", "50%", null, "東京"]);
    assert.deepEqual(
      (table.array("when") as Date[]).map((d) => d.toISOString()),
      sets.map(() => "2026-03-04T05:06:07.000Z"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Pages whose columns disagree in type are joined in one file, widened", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const summary = await writeDataset(
      (async function* () {
        yield tableFromColumns([
          { name: "n", type: "integer", values: [1, 2] },
          { name: "tags", type: "array", values: [["a"], null] },
        ]);
        yield tableFromColumns([
          { name: "n", type: "bigint", values: [2n ** 62n] },
          { name: "tags", type: "array", values: [[{ lang: "fr" }]] },
          { name: "extra", type: "string", values: ["x"] },
        ]);
      })(),
      dir,
      {},
    );
    assert.equal(summary.files.length, 1);
    const back = await readTable(`${dir}/${summary.files[0]}`);
    assert.deepEqual(columnTypes(back), { n: "bigint", tags: "array", extra: "string" });
    assert.deepEqual(back.objects(), [
      { n: 1n, tags: ["a"], extra: null },
      { n: 2n, tags: null, extra: null },
      { n: 2n ** 62n, tags: [{ lang: "fr" }], extra: "x" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("The writer flushes when its Arrow buffers reach flushBytes, before flushRows", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // 1,000-character ids: each page of 10 rows holds about 10 KB of Arrow buffers.
    const page = (p: number) =>
      Array.from({ length: 10 }, (_, i) => ({
        id: `${p}-${i}-`.padEnd(1_000, "x"),
        when: "2026-01-01",
      }));
    const writer = await DatasetWriter.open(dir, { schema, flushRows: 1_000, flushBytes: 25_000 });
    const held: number[] = [];
    for (let p = 0; p < 5; p++) {
      await writer.write(page(p));
      held.push(writer.buffered);
    }
    // Flushed after the third page (30 KB), not at 1,000 rows.
    assert.deepEqual(held, [10, 20, 0, 10, 20]);
    const summary = await writer.close();
    assert.equal(summary.files.length, 2);
    assert.equal(summary.rows, 50);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("partitionBy takes column names: one folder per value, dates by their day", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pages = (async function* () {
      yield tableFromColumns([
        { name: "id", type: "string", values: ["a", "b", "c"] },
        { name: "kind", type: "string", values: ["letter", "map", null] },
        {
          name: "when",
          type: "date",
          values: [new Date("2026-01-02T10:00:00Z"), new Date("2026-01-02T11:00:00Z"), null],
        },
      ]);
    })();
    const summary = await writeDataset(pages, dir, { partitionBy: ["kind", "when"] });
    assert.deepEqual(summary.files.map((file) => file.replace(/part-.*$/, "")).sort(), [
      "kind=__HIVE_DEFAULT_PARTITION__/when=__HIVE_DEFAULT_PARTITION__/",
      "kind=letter/when=2026-01-02/",
      "kind=map/when=2026-01-02/",
    ]);
    const alone = await writeDataset(
      (async function* () {
        yield [{ id: "d", when: "2026-03-04" }];
      })(),
      `${dir}/alone`,
      { schema, partitionBy: "id" },
    );
    assert.deepEqual(alone.files.map((file) => file.replace(/part-.*$/, "")), ["id=d/"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("partitionBy naming no column, or of another shape, is refused with what to give", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pages = (async function* () {
      yield [{ id: "a", when: "2026-01-02" }];
    })();
    await assert.rejects(
      writeDataset(pages, `${dir}/month`, { schema, partitionBy: "month" }),
      /Cannot partition the dataset by month: the page has no such column[\s\S]*id, when/,
    );
    for (const partitionBy of [5, [""], [{ name: "x" }], [null]]) {
      await assert.rejects(
        writeDataset(pages, `${dir}/bad`, { schema, partitionBy: partitionBy as never }),
        /Invalid partitionBy option[\s\S]*column names/,
      );
    }
    await assert.rejects(Deno.stat(`${dir}/bad`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("A dataset writer writes only into an empty folder or one it started; every byte of others is kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
    await Deno.mkdir(`${dir}/figures`);
    await Deno.writeTextFile(`${dir}/figures/plot.svg`, "<svg/>");
    const pages = (async function* () {
      yield [{ id: "a", when: "2026-01-02" }];
    })();
    await assert.rejects(
      writeDataset(pages, dir, { schema }),
      /Cannot write a dataset into .*: it holds files tidepool did not write \((notes\.txt|figures)\)/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name).sort(), [
      "figures",
      "notes.txt",
    ]);
    assert.equal(await Deno.readTextFile(`${dir}/notes.txt`), "mine");
    // A folder a first run left before its first flush (its state file, a part file) is resumed:
    // the writer claimed the state file's name in its checkpoint when it opened.
    const stateFile = `${dir}/fresh/_harvest_state.json`;
    await DatasetWriter.open(`${dir}/fresh`, { schema, stateFile });
    await Deno.writeTextFile(stateFile, "{}");
    await Deno.writeTextFile(`${dir}/fresh/part-000000-deadbeef.parquet`, "half");
    const summary = await writeDataset(
      (async function* () {
        yield [{ id: "a", when: "2026-01-02" }];
      })(),
      `${dir}/fresh`,
      { schema, stateFile },
    );
    assert.equal(summary.rows, 1);
    assert.equal(await Deno.lstat(stateFile).then(() => true, () => false), false, "state reset");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
