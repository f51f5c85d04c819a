import assert from "node:assert/strict";
import { columnTypes, tableFromColumns } from "../../lib/table/build_table.ts";
import { saveTable } from "../../lib/files/mod.ts";
import { query, readParquetSql } from "../../lib/dataset/query.ts";

function letters(ids: string[], set: string) {
  return tableFromColumns([
    { name: "identifier", type: "string", values: ids },
    { name: "datestamp", type: "date", values: ids.map((_, i) => new Date(Date.UTC(2024, i, 1))) },
    { name: "wei", type: "bigint", values: ids.map((_, i) => 2n ** 62n + BigInt(i)) },
    { name: "subjects", type: "array", values: ids.map((id) => [set, id]) },
    { name: "origin", type: "string", values: ids.map(() => set) },
  ]);
}

Deno.test("query reads a Parquet file that saveTable wrote, with its types", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await saveTable(`${dir}/letters.parquet`, letters(["a", "b", "c"], "maps"));
    const table = await query(
      `SELECT identifier, datestamp, wei, subjects FROM ${
        readParquetSql(`${dir}/letters.parquet`)
      } WHERE identifier <> 'b' ORDER BY identifier`,
    );
    assert.deepEqual(columnTypes(table), {
      identifier: "string",
      datestamp: "date",
      wei: "bigint",
      subjects: "array",
    });
    assert.deepEqual(table.objects(), [
      {
        identifier: "a",
        datestamp: new Date("2024-01-01T00:00:00Z"),
        wei: 2n ** 62n,
        subjects: ["maps", "a"],
      },
      {
        identifier: "c",
        datestamp: new Date("2024-03-01T00:00:00Z"),
        wei: 2n ** 62n + 2n,
        subjects: ["maps", "c"],
      },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("query views a hive-partitioned folder, its key=value folders read as columns", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/set=maps`, { recursive: true });
    await Deno.mkdir(`${dir}/set=it's letters`, { recursive: true });
    await saveTable(`${dir}/set=maps/part-0.parquet`, letters(["a", "b"], "maps"));
    await saveTable(`${dir}/set=it's letters/part-0.parquet`, letters(["c"], "letters"));
    const counts = await query(
      "SELECT set, count(*)::INTEGER AS n FROM records GROUP BY set ORDER BY set",
      { views: { records: dir } },
    );
    assert.deepEqual(counts.objects(), [{ set: "it's letters", n: 1 }, { set: "maps", n: 2 }]);
    assert.deepEqual(columnTypes(counts), { set: "string", n: "integer" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("query says what DuckDB rejected", async () => {
  await assert.rejects(query("SELECT nope FROM missing_table"), (error: Error) => {
    assert.match(error.message, /^DuckDB could not run the query\nDuckDB said: .*missing_table/);
    return true;
  });
});
