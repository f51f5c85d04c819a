/** NDJSON table files: one object per row, read back; and the format named by an extension. */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { encodeTable, formatOfPath, readTable, saveTable } from "../../lib/files/mod.ts";
import { attachProvenance, provenance } from "../../lib/table/provenance.ts";

Deno.test("NDJSON: one object per row, keys in column order, JSON-less values as text or null", async () => {
  const table = aq.table({
    id: ["a", "b"],
    n: [1n, 2n ** 70n],
    when: [new Date("2026-01-02T03:04:05Z"), null],
    tags: [["x", "y"], []],
    ratio: [Number.NaN, 0.5],
  });
  const text = new TextDecoder().decode(await encodeTable(table, "ndjson"));
  const lines = text.split("\n");
  assert.equal(lines.length, 3);
  assert.equal(lines[2], "");
  assert.deepEqual(JSON.parse(lines[0]), {
    id: "a",
    n: "1",
    when: "2026-01-02T03:04:05.000Z",
    tags: ["x", "y"],
    ratio: null,
  });
  assert.deepEqual(Object.keys(JSON.parse(lines[1])), ["id", "n", "when", "tags", "ratio"]);
  assert.equal(JSON.parse(lines[1]).n, "1180591620717411303424");
});

Deno.test("NDJSON: saveTable and readTable round-trip a file, with its provenance beside it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = attachProvenance(aq.table({ id: ["a", "b"], tags: [["x"], null] }), {
      service: "http://127.0.0.1:1",
      operation: "Test.read",
      params: {},
      tidepoolVersion: "0.1.0",
      startedAt: "2026-01-01T00:00:00Z",
      endedAt: "2026-01-01T00:00:01Z",
      asOf: {},
      cacheKeys: [],
    });
    for (const name of ["t.ndjson", "t.JSONL"]) {
      await saveTable(`${dir}/${name}`, table);
      const back = await readTable(`${dir}/${name}`);
      assert.deepEqual(back.objects(), [{ id: "a", tags: ["x"] }, { id: "b", tags: null }]);
      assert.equal(provenance(back)?.operation, "Test.read");
    }
    // A row with a key the first lacks adds a column; a missing key is null.
    await Deno.writeTextFile(`${dir}/mixed.ndjson`, '{"a":1}\n\n{"b":"x"}\n');
    assert.deepEqual((await readTable(`${dir}/mixed.ndjson`)).objects(), [
      { a: 1, b: null },
      { a: null, b: "x" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("NDJSON: a line that is not a JSON object is an error naming the line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [body, what] of [['{"a":1}\nnot json\n', "JSON"], ["[1,2]\n", "a JSON object"]]) {
      await Deno.writeTextFile(`${dir}/bad.ndjson`, body);
      await assert.rejects(() => readTable(`${dir}/bad.ndjson`), (error: Error) => {
        assert.match(error.message, new RegExp(`line \\d of .*bad\\.ndjson: it is not ${what}`));
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("formatOfPath: the format an extension names, in any case; none for others", () => {
  assert.equal(formatOfPath("a/b.csv"), "csv");
  assert.equal(formatOfPath("b.JSONL"), "ndjson");
  assert.equal(formatOfPath("b.ndjson"), "ndjson");
  assert.equal(formatOfPath("b.feather"), "arrow");
  assert.equal(formatOfPath("b.parquet"), "parquet");
  assert.equal(formatOfPath("dir.v2/records"), undefined);
  assert.equal(formatOfPath(".csv"), undefined);
  assert.equal(formatOfPath("b.xlsx"), undefined);
});
