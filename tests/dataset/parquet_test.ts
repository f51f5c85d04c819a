import assert from "node:assert/strict";
import * as aq from "arquero";
import { columnTypes, tableFromColumns } from "../../lib/table/build_table.ts";
import { readTable, saveTable } from "../../lib/files/mod.ts";
import { tableFromParquet, tableToParquet } from "../../lib/dataset/parquet.ts";
import { parquetWasm } from "../../lib/dataset/_parquet_wasm.ts";

const EVERY_TYPE = [
  { name: "title", type: "string", values: ["坊っちゃん", null, ""] },
  { name: "score", type: "number", values: [0.1, null, -1e300] },
  { name: "pages", type: "integer", values: [1, null, 2 ** 40] },
  { name: "wei", type: "bigint", values: [2n ** 63n - 1n, null, -(2n ** 63n)] },
  { name: "amount", type: "bigint", values: [10n ** 40n, null, -1n] },
  { name: "huge", type: "integer", values: [1e300, null, 0] },
  { name: "free", type: "boolean", values: [true, null, false] },
  {
    name: "created",
    type: "date",
    values: [new Date("2024-02-29T23:59:59.999Z"), null, new Date(-86_400_000)],
  },
  { name: "subjects", type: "array", values: [["maps", "letters"], null, []] },
  { name: "sizes", type: "array", values: [[1.5, 2], [], null] },
  { name: "seen", type: "array", values: [[new Date(0)], null, []] },
  { name: "mixed", type: "array", values: [[{ lang: "fr" }, "x", 3], null, []] },
  { name: "metadata", type: "object", values: [{ a: [1, { b: null }] }, null, "plain"] },
] as const;

function everyTypeTable() {
  return tableFromColumns(EVERY_TYPE.map((column) => ({ ...column, values: [...column.values] })));
}

Deno.test("saveTable and readTable keep every column type and value through Parquet", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = everyTypeTable();
    const bytes = await saveTable(`${dir}/t.parquet`, table);
    assert.ok(bytes > 0);
    const head = await Deno.readFile(`${dir}/t.parquet`);
    assert.equal(new TextDecoder().decode(head.subarray(0, 4)), "PAR1");
    const back = await readTable(`${dir}/t.parquet`);
    assert.deepEqual(columnTypes(back), columnTypes(table));
    assert.deepEqual(back.objects(), table.objects());
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["t.parquet"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("A Parquet file with no rows keeps its columns and types", async () => {
  const empty = tableFromColumns(EVERY_TYPE.map(({ name, type }) => ({ name, type, values: [] })));
  const back = await tableFromParquet(await tableToParquet(empty));
  assert.equal(back.numRows(), 0);
  assert.deepEqual(columnTypes(back), columnTypes(empty));
});

Deno.test("Parquet stores lists as lists and objects as JSON text, as documented", async () => {
  const wasm = await parquetWasm();
  const schema = wasm.readSchema(await tableToParquet(everyTypeTable()));
  const ipc = schema.intoIPCStream();
  const { tableFromIPC, Type } = await import("@uwdata/flechette");
  const fields = Object.fromEntries(tableFromIPC(ipc).schema.fields.map((f) => [f.name, f.type]));
  assert.equal(fields.subjects.typeId, Type.List);
  assert.equal(fields.sizes.typeId, Type.List);
  assert.equal(fields.mixed.typeId, Type.Utf8);
  assert.equal(fields.metadata.typeId, Type.Utf8);
  assert.equal(fields.created.typeId, Type.Timestamp);
  assert.equal(fields.wei.typeId, Type.Int);
});

Deno.test("readTable types a table without tidepool metadata from its Arrow types", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // saveTable's Arrow files carry no tidepool metadata: the types come from Arrow.
    await saveTable(`${dir}/t.arrow`, aq.table({ n: [1.5, null], when: [new Date(0), null] }));
    const back = await readTable(`${dir}/t.arrow`);
    assert.deepEqual(columnTypes(back), { n: "number", when: "date" });
    await assert.rejects(readTable(`${dir}/t.xlsx`), /Cannot read a table from \.xlsx/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Importing mod.ts neither compiles parquet-wasm nor loads DuckDB", async () => {
  // Without --allow-ffi a DuckDB import would fail; the wasm file is read only on first use.
  const script = `
    import fs from "node:fs";
    const read = fs.readFileSync;
    const wasm = [];
    fs.readFileSync = (path, ...rest) => {
      if (String(path).endsWith(".wasm")) wasm.push(String(path));
      return read(path, ...rest);
    };
    const mod = await import(${JSON.stringify(new URL("../../mod.ts", import.meta.url).href)});
    const before = wasm.filter((p) => p.includes("parquet")).length;
    const dir = await Deno.makeTempDir();
    await mod.saveTable(dir + "/t.parquet", mod.buildTable(mod.defineSchema([{ name: "a", type: "string" }]), []));
    await Deno.remove(dir, { recursive: true });
    console.log(JSON.stringify({ before, after: wasm.filter((p) => p.includes("parquet")).length }));
  `;
  // deno eval would grant every permission; a script on stdin runs with only those given.
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--frozen", "--allow-read", "--allow-write", "--allow-env", "--allow-sys", "-"],
    cwd: new URL("../..", import.meta.url),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, stderr);
  const counts = JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").at(-1)!);
  assert.deepEqual(counts, { before: 0, after: 1 });
});
