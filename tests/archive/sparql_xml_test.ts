import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { readSparqlResults } from "../../lib/archive/mod.ts";
import { ProtocolError } from "../../lib/http/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";

const EEA = new URL("../fixtures/sparql-results/eea/", import.meta.url);
const XSD = "http://www.w3.org/2001/XMLSchema#";
const NS = "http://www.w3.org/2005/sparql-results#";

function eea(name: string): string {
  return Deno.readTextFileSync(new URL(name, EEA));
}

async function xmlTable(xml: string): Promise<ColumnTable> {
  const result = await readSparqlResults(xml, { format: "xml", lang: true, datatype: true });
  assert.ok(typeof result !== "boolean");
  return result;
}

Deno.test("XML results from Virtuoso: every row, unbound cells, custom datatypes, Cyrillic", async () => {
  const countries = await xmlTable(eea("countries.srx"));
  assert.equal(countries.numRows(), 3);
  assert.deepEqual(countries.array("name"), ["Belgium", "Albania", "Japan"]);
  assert.deepEqual(countries.array("nutscode"), ["BE", null, null]);
  assert.deepEqual(countries.array("gdp"), [44.252934, 3.808241, null]);
  assert.deepEqual(countries.array("faocode"), ["255", "3", null], "xsd:string stays text");
  // A datatype tidepool does not know is kept as text with its datatype alongside.
  assert.deepEqual(countries.array("gdpTotal"), ["471161.0", "12015.0", "5069000.0"]);
  assert.equal(
    countries.get("gdpTotal_datatype", 0),
    "http://aims.fao.org/aos/geopolitical.owl#MillionUSD",
  );
  const national = await xmlTable(eea("national.srx"));
  assert.equal(national.get("nameru", 0), "Германия");
  assert.equal(national.get("nameru_datatype", 0), `${XSD}string`);
});

Deno.test("XML results: xsd types from Virtuoso, including its space-separated dateTime", async () => {
  const t = await xmlTable(eea("xsdtypes.srx"));
  assert.equal(t.get("decimalData", 0), 123.456);
  assert.equal((t.get("lastupdated", 0) as Date).toISOString(), "2009-11-02T14:31:40.000Z");
  assert.equal((t.get("foundingDate", 0) as Date).toISOString(), "1991-08-20T00:00:00.000Z");
  assert.equal(t.get("timeexample", 0), "18:58:21");
  assert.equal(columnTypes(t).foundingDate, "date");
});

Deno.test("XML results: character references and predefined entities are decoded", async () => {
  const t = await xmlTable(eea("big_text.srx"));
  assert.equal(t.get("text", 0), "multiple<br>paragraphs<br>here");
  assert.equal(t.get("resource", 0), "http://example.com/");
  assert.equal(t.get("blank", 0), "_:bnode.id");
  const refs = await xmlTable(
    `<sparql xmlns="${NS}"><head><variable name="x"/></head><results><result>` +
      `<binding name="x"><literal>a&#xD;&#10;b &amp; &quot;c&quot; &apos;d&apos; &#x65E5;</literal></binding>` +
      `</result></results></sparql>`,
  );
  assert.equal(refs.get("x", 0), "a\r\nb & \"c\" 'd' 日");
});

Deno.test("XML results: a truncated document is an error at every cut, never a shorter table", async () => {
  const whole = eea("countries.srx").trimEnd();
  let cuts = 0;
  for (let end = 1; end < whole.length; end += 37) {
    await assert.rejects(
      readSparqlResults(whole.slice(0, end), { format: "xml" }),
      (error) =>
        error instanceof ProtocolError && /not well-formed|root element/.test(error.message),
      `cut at ${end} of ${whole.length}`,
    );
    cuts++;
  }
  assert.ok(cuts > 40);
});

Deno.test("XML results: a control character XML forbids is an error that says where", async () => {
  await assert.rejects(
    readSparqlResults(eea("invalid-result.srx"), { format: "xml" }),
    (error) =>
      error instanceof ProtocolError &&
      /disallowed character \(line 89, column \d+\)/.test(error.message) &&
      /format/.test(error.hint ?? ""),
  );
});

Deno.test("XML results: undeclared entities and DOCTYPE entities are refused", async () => {
  const undeclared = `<sparql xmlns="${NS}"><head><variable name="x"/></head><results><result>` +
    `<binding name="x"><literal>a&nbsp;b</literal></binding></result></results></sparql>`;
  await assert.rejects(
    readSparqlResults(undeclared, { format: "xml" }),
    (error) => error instanceof ProtocolError && /undefined entity/.test(error.message),
  );
  const declared = `<?xml version="1.0"?><!DOCTYPE sparql [<!ENTITY a "aaaa">]>` +
    `<sparql xmlns="${NS}"><head><variable name="x"/></head><results><result>` +
    `<binding name="x"><literal>&a;</literal></binding></result></results></sparql>`;
  await assert.rejects(readSparqlResults(declared, { format: "xml" }), /DOCTYPE/);
});

Deno.test("XML results: prefixed elements, undeclared variables, many rows, RDF-star", async () => {
  const rows = Array.from(
    { length: 300 },
    (_, i) =>
      `<r:result><r:binding name="n"><r:literal datatype="${XSD}integer">${i}</r:literal></r:binding>` +
      `<r:binding name="extra"><r:uri>http://example.org/ignored</r:uri></r:binding></r:result>`,
  ).join("");
  const prefixed = await xmlTable(
    `<r:sparql xmlns:r="${NS}"><r:head><r:variable name="n"/><r:variable name="empty"/></r:head>` +
      `<r:results>${rows}</r:results></r:sparql>`,
  );
  assert.equal(prefixed.numRows(), 300);
  assert.deepEqual(prefixed.columnNames().slice(0, 2), ["n", "empty"]);
  assert.equal(prefixed.get("n", 299), 299);
  assert.equal(prefixed.get("empty", 150), null);

  const triple = {
    subject: { type: "uri", value: "http://example.org/s" },
    predicate: { type: "uri", value: "http://example.org/p" },
    object: { type: "literal", value: "o", "xml:lang": "en" },
  };
  const fromXml = await xmlTable(
    `<sparql xmlns="${NS}"><head><variable name="t"/></head><results><result>` +
      `<binding name="t"><triple><subject><uri>http://example.org/s</uri></subject>` +
      `<predicate><uri>http://example.org/p</uri></predicate>` +
      `<object><literal xml:lang="en">o</literal></object></triple></binding>` +
      `</result></results></sparql>`,
  );
  const fromJson = await readSparqlResults(
    JSON.stringify({
      head: { vars: ["t"] },
      results: { bindings: [{ t: { type: "triple", value: triple } }] },
    }),
    { format: "json" },
  ) as ColumnTable;
  assert.deepEqual(fromXml.get("t", 0), fromJson.get("t", 0));
});

Deno.test("XML results: ASK answers, and a binding with no term is an error", async () => {
  assert.equal(
    await readSparqlResults(`<sparql xmlns="${NS}"><head/><boolean>true</boolean></sparql>`, {
      format: "xml",
    }),
    true,
  );
  assert.equal(
    await readSparqlResults(`<sparql xmlns="${NS}"><head/><boolean> false </boolean></sparql>`, {
      format: "xml",
    }),
    false,
  );
  await assert.rejects(
    readSparqlResults(
      `<sparql xmlns="${NS}"><head><variable name="x"/></head><results><result>` +
        `<binding name="x"></binding></result></results></sparql>`,
      { format: "xml" },
    ),
    /binding without uri, bnode or literal/,
  );
});
