/**
 * `readTable` on JSON that tidepool did not write (a compute job's
 * `summary.json`, another tool's export): an array of records, an object of
 * columns, of records or of values become tables; any other shape is refused
 * by name; and `tableText` shows whatever `readTable` returns.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readTable } from "../../lib/files/read_table.ts";
import { tableText } from "../../lib/notebook/table_text.ts";
import { columnTypes } from "../../lib/table/build_table.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { downloadResults, startFreeCompute, waitForJob } from "../../lib/ocean/compute/mod.ts";
import { setup, signer } from "../ocean_compute/_setup.ts";

type Row = Record<string, unknown>;

async function readJson(value: unknown, raw?: string) {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/summary.json`;
    await Deno.writeTextFile(path, raw ?? JSON.stringify(value));
    return await readTable(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an array of records: one row each, every key a column, typed from the values", async () => {
  const table = await readJson([
    { name: "age", mean: 41.5, n: 10, ok: true },
    { name: "income", mean: 52000, tags: ["a"] },
  ]);
  assert.equal(table.numRows(), 2);
  assert.deepEqual(table.columnNames(), ["name", "mean", "n", "ok", "tags"]);
  assert.deepEqual(columnTypes(table), {
    name: "string",
    mean: "number",
    n: "number",
    ok: "boolean",
    tags: "array",
  });
  assert.deepEqual((table.objects() as Row[])[1], {
    name: "income",
    mean: 52000,
    n: null,
    ok: null,
    tags: ["a"],
  });
  assert.match(tableText(table), /income/);
});

Deno.test("an object of columns, of records, of values; an array of values; nothing", async () => {
  const columns = await readJson({ a: [1, 2, 3], b: ["x", "y", null] });
  assert.deepEqual(columns.objects(), [{ a: 1, b: "x" }, { a: 2, b: "y" }, { a: 3, b: null }]);
  const keyed = await readJson({ "did:op:1": { rows: 5 }, "did:op:2": { rows: 7, extra: "e" } });
  assert.deepEqual(keyed.objects(), [
    { key: "did:op:1", rows: 5, extra: null },
    { key: "did:op:2", rows: 7, extra: "e" },
  ]);
  const one = await readJson({ mean: 3.5, count: 4, label: "run 1" });
  assert.deepEqual(one.objects(), [{ mean: 3.5, count: 4, label: "run 1" }]);
  const values = await readJson([3, 1, 2]);
  assert.deepEqual(values.array("value"), [3, 1, 2]);
  const empty = await readJson([]);
  assert.equal(empty.numRows(), 0);
  for (const table of [columns, keyed, one, values, empty]) {
    assert.equal(typeof table.numRows(), "number");
    assert.equal(typeof tableText(table), "string");
  }
});

Deno.test("shapes that name no columns are refused, saying what the file holds", async () => {
  const cases: [unknown, string | undefined, RegExp][] = [
    [[[1, 2], [3, 4]], undefined, /an array of lists/],
    [[{ a: 1 }, 2], undefined, /mixed items/],
    [{ a: [1, 2], b: [1] }, undefined, /lists of different lengths/],
    [{ a: [1, 2], b: 3 }, undefined, /lists and single values mixed/],
    [42, undefined, /a single number/],
    [null, undefined, /holds null/],
    [undefined, '{"a": [1,', /not valid JSON/],
  ];
  for (const [value, raw, said] of cases) {
    const error = await readJson(value, raw).catch((e) => e);
    assert.ok(error instanceof TidepoolError, `${JSON.stringify(value)}: got ${error}`);
    assert.match(error.message, /Cannot read a table from .*summary\.json/);
    assert.match(error.message, said);
  }
});

Deno.test("a compute job's summary.json, downloaded under a hostile name, reads into a table", async () => {
  const context = await setup({
    faults: { resultFilenames: { output: "データ".repeat(60) + "\u202E.json" } },
  });
  const dir = await Deno.makeTempDir();
  try {
    const [job] = await startFreeCompute(context.http, context.request, context.environments);
    const done = await waitForJob(context.http, signer, job.jobId, {
      pollMs: 20,
      timeoutMs: 10_000,
    });
    const files = await downloadResults(context.http, done, { signer, dir, types: ["output"] });
    const path = files.array("path")[0] as string;
    assert.ok(new TextEncoder().encode(path.slice(dir.length + 1)).byteLength <= 240);
    assert.ok(!path.includes("\u202E"));
    assert.ok([...Deno.readDirSync(dir)].some((entry) => join(dir, entry.name) === path));
    const summary = await readTable(path);
    const raw = JSON.parse(await Deno.readTextFile(path));
    assert.equal(summary.numRows(), Object.keys(raw).length);
    assert.deepEqual(summary.array("key"), Object.keys(raw));
    assert.match(tableText(summary), /key/);
  } finally {
    await context.sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
