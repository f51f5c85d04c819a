import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { readSparqlResults } from "../../lib/archive/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";

const DIR = new URL("../fixtures/sparql-results/", import.meta.url);
const XSD = "http://www.w3.org/2001/XMLSchema#";
const EX = "http://example.org/";

function read(name: string, companions = true): Promise<ColumnTable | boolean> {
  const format = name.endsWith(".srj")
    ? "json"
    : name.endsWith(".srx")
    ? "xml"
    : name.endsWith(".csv")
    ? "csv"
    : "tsv";
  return readSparqlResults(Deno.readTextFileSync(new URL(name, DIR)), {
    format,
    lang: companions,
    datatype: companions,
  });
}

async function table(name: string): Promise<ColumnTable> {
  const result = await read(name);
  assert.ok(typeof result !== "boolean", `${name} should be a table`);
  return result;
}

const SUBJECTS = [1, 2, 3, 4, 5, 6].map((n) => `${EX}s${n}`);

Deno.test("JSON results: terms, mixed column as strings, datatypes kept in companions", async () => {
  const t = await table("jsonres01.srj");
  assert.deepEqual(t.columnNames().slice(0, 3), ["s", "p", "o"]);
  assert.deepEqual(t.array("s"), SUBJECTS);
  assert.deepEqual(t.array("o"), [`${EX}s2`, "foo", "bar", "4", "5", "_:b0"]);
  assert.deepEqual(t.array("o_datatype"), [
    null,
    `${XSD}string`,
    `${XSD}string`,
    `${XSD}integer`,
    `${XSD}decimal`,
    null,
  ]);
  assert.equal(columnTypes(t).o, "string");
});

Deno.test("JSON results: unbound values are null", async () => {
  const t = await table("jsonres02.srj");
  assert.deepEqual(t.columnNames().slice(0, 5), ["s", "p", "o", "p2", "o2"]);
  assert.deepEqual(t.array("p2"), [`${EX}p2`, null, null, null, null, null]);
  assert.deepEqual(t.array("o2"), ["foo", null, null, null, null, null]);
});

Deno.test("JSON results: ASK true and false, and an empty SELECT keeps its columns", async () => {
  assert.equal(await read("jsonres03.srj"), true);
  assert.equal(await read("jsonres04.srj"), false);
  const empty = await table("agg-empty-group-count-1.srj");
  assert.equal(empty.numRows(), 0);
  assert.deepEqual(empty.columnNames().slice(0, 1), ["C"]);
});

Deno.test("XML results: decimal and double to number, integers, booleans, languages", async () => {
  const avg = await table("agg-avg-02.srx");
  assert.deepEqual(avg.array("avg"), [1.6, 0.2, 2]);
  assert.equal(columnTypes(avg).avg, "number");
  const group = await table("group04.srx");
  assert.deepEqual(group.array("X"), ["1605-11-05", "9"], "date mixed with integer stays text");
  assert.deepEqual(group.array("S"), [2, 1]);
  assert.equal(columnTypes(group).S, "number");
  const ifs = await table("if01.srx");
  assert.deepEqual(ifs.array("integer"), [false, false, false, true, false, false, false]);
  assert.equal(columnTypes(ifs).integer, "boolean");
  assert.deepEqual(ifs.array("o"), ["123", "def", "français", "日本語", "7", "abc", "english"]);
  assert.deepEqual(ifs.array("o_lang"), [null, null, "fr", "ja", null, null, "en"]);
});

Deno.test("XML results: a date column becomes Date values", async () => {
  const xml = `<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#">
<head><variable name="d"/></head><results>
<result><binding name="d"><literal datatype="${XSD}date">1605-11-05</literal></binding></result>
<result><binding name="d"><literal datatype="${XSD}dateTime">2020-01-02T03:04:05</literal></binding></result>
</results></sparql>`;
  const t = await readSparqlResults(xml, { format: "xml" }) as ColumnTable;
  const dates = t.array("d") as Date[];
  assert.equal(columnTypes(t).d, "date");
  assert.equal(dates[0].toISOString(), "1605-11-05T00:00:00.000Z");
  assert.equal(dates[1].toISOString(), "2020-01-02T03:04:05.000Z");
});

Deno.test("XML results: a DOCTYPE is refused", async () => {
  const xml = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><sparql/>`;
  await assert.rejects(readSparqlResults(xml, { format: "xml" }), /DOCTYPE/);
});

Deno.test("CSV results: strings, empty cells unbound, quoted commas", async () => {
  const one = await table("csvtsv01.csv");
  assert.deepEqual(one.array("s"), SUBJECTS);
  assert.deepEqual(one.array("o"), [`${EX}s2`, "foo", "bar", "4", "5.5", "_:a"]);
  const two = await table("csvtsv02.csv");
  assert.deepEqual(two.array("p2"), [`${EX}p2`, null, null, null, null, null]);
  assert.deepEqual(two.array("o2"), ["foo", null, null, null, null, null]);
  const three = await table("csvtsv03.csv");
  assert.deepEqual(three.array("o"), ["1", "2.2", "-3", "4,4", "5,5", "1.0E6", "a7"]);
});

Deno.test("TSV results: Turtle terms, unbound cells, typed literals", async () => {
  const one = await table("csvtsv01.tsv");
  assert.deepEqual(one.array("s"), SUBJECTS);
  assert.deepEqual(one.array("o"), [`${EX}s2`, "foo", "bar", "4", "5.5", "_:b0"]);
  assert.deepEqual(one.array("o_datatype"), [
    null,
    `${XSD}string`,
    `${XSD}string`,
    `${XSD}integer`,
    `${XSD}decimal`,
    null,
  ]);
  const two = await table("csvtsv02.tsv");
  assert.deepEqual(two.array("p2"), [`${EX}p2`, null, null, null, null, null]);
  assert.deepEqual(two.array("o2"), ["foo", null, null, null, null, null]);
  const three = await table("csvtsv03.tsv");
  assert.deepEqual(three.array("o"), ["1", "2.2", "-3", "4,4", "5,5", "1.0e6", "a7"]);
  assert.deepEqual(three.array("o_datatype"), [
    `${XSD}string`,
    `${XSD}decimal`,
    `${XSD}negativeInteger`,
    `${XSD}string`,
    `${EX}myCustomDatatype`,
    `${XSD}double`,
    `${XSD}hexBinary`,
  ]);
});

Deno.test("TSV results: one numeric family per column is typed", async () => {
  const tsv = `?n\t?big\t?ok\n-3\t"9007199254740993"^^<${XSD}integer>\ttrue\n` +
    `"4"^^<${XSD}negativeInteger>\t1\tfalse\n`;
  const t = await readSparqlResults(tsv, { format: "tsv" }) as ColumnTable;
  assert.deepEqual(t.array("n"), [-3, 4]);
  assert.deepEqual(t.array("big"), [9007199254740993n, 1n]);
  assert.deepEqual(t.array("ok"), [true, false]);
  assert.deepEqual(columnTypes(t), { n: "number", big: "bigint", ok: "boolean" });
});
