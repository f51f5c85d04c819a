/** saveTable: formula-like CSV cells are escaped by default, and list cells flatten as asked. */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveTable } from "../../lib/files/mod.ts";
import { readTable } from "../../lib/files/read_table.ts";

async function csvOf(table: aq.ColumnTable, options?: Parameters<typeof saveTable>[2]) {
  const dir = await Deno.makeTempDir();
  try {
    await saveTable(`${dir}/t.csv`, table, options);
    return await Deno.readTextFile(`${dir}/t.csv`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("saveTable: CSV cells a spreadsheet would run are prefixed with a quote", async () => {
  const table = aq.table({
    title: ['=HYPERLINK("http://x")', "+1+cmd", "-2+3", "@SUM(A1)", "\tx", "plain"],
    signed: ["-3", "+4.5", "-1e3", "12", "0", "-"],
  });
  const text = await csvOf(table);
  const lines = text.trim().split("\n");
  assert.equal(lines[1], `"'=HYPERLINK(""http://x"")",-3`);
  assert.equal(lines[2], "'+1+cmd,+4.5");
  assert.equal(lines[3], "'-2+3,-1e3");
  assert.equal(lines[4], "'@SUM(A1),12");
  assert.equal(lines[5], "'\tx,0");
  assert.equal(lines[6], "plain,'-");
  // Turned off, the cells are written as they are.
  const raw = await csvOf(table, { escapeFormulas: false });
  assert.match(raw, /^"=HYPERLINK/m);
  assert.match(raw, /^\+1\+cmd,/m);
});

Deno.test("saveTable: a column name a spreadsheet would run is quoted in the CSV header too", async () => {
  // Column names can come from a server (an archive's metadata fields).
  const table = aq.table({
    '=HYPERLINK("http://x")': ["a"],
    "'=cmd": ["taken already"],
    "=cmd": ["b"],
    "-1": ["a plain number is a name as it is"],
  });
  const [header, row] = (await csvOf(table)).trim().split("\n");
  assert.equal(header, `"'=HYPERLINK(""http://x"")",'=cmd,''=cmd,-1`);
  // No column lost to the renaming: the taken name keeps its own cell.
  assert.equal(row, "a,taken already,b,a plain number is a name as it is");
  const raw = await csvOf(table, { escapeFormulas: false });
  assert.match(raw, /^"=HYPERLINK/);
});

Deno.test("saveTable: list cells as JSON (default), joined, or first", async () => {
  const table = aq.table({
    id: [1, 2, 3],
    creators: [["森鷗外", "夏目漱石"], [], null],
  });
  assert.equal(
    (await csvOf(table)).trim().split("\n")[1],
    `1,"[""森鷗外"",""夏目漱石""]"`,
  );
  const joined = (await csvOf(table, { lists: "join" })).trim().split("\n");
  assert.deepEqual(joined.slice(1), ["1,森鷗外; 夏目漱石", "2,", "3,"]);
  const piped = (await csvOf(table, { lists: "join", separator: "|" })).trim().split("\n");
  assert.equal(piped[1], "1,森鷗外|夏目漱石");
  const first = (await csvOf(table, { lists: "first" })).trim().split("\n");
  assert.deepEqual(first.slice(1), ["1,森鷗外", "2,", "3,"]);
  await assert.rejects(
    csvOf(table, { lists: "comma" as "join" }),
    /Invalid lists option: comma/,
  );
});

Deno.test("saveTable: Arrow takes the lists option too; Parquet keeps lists", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const table = aq.table({ tags: [["a", "b"], ["c"]] });
    await saveTable(`${dir}/t.arrow`, table, { lists: "join" });
    assert.deepEqual(Array.from((await readTable(`${dir}/t.arrow`)).array("tags")), ["a; b", "c"]);
    await saveTable(`${dir}/t.parquet`, table, { lists: "join" });
    const back = Array.from(
      (await readTable(`${dir}/t.parquet`)).array("tags"),
      (v) => Array.from(v as string[]),
    );
    assert.deepEqual(back, [["a", "b"], ["c"]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
