/**
 * Real SPARQL 1.1 JSON results (tests/fixtures/external/sparql, see
 * SOURCES.md there): Wikidata Query Service answers recorded by pywikibot
 * and wikibase-sdk, read as the SPARQL 1.1 Query Results JSON Format says.
 * The EEA Virtuoso XML recordings are tested in tests/archive/sparql_xml_test.ts.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import { readSparqlResults } from "../../../lib/archive/mod.ts";
import { columnTypes } from "../../../lib/table/mod.ts";

const DIR = new URL("../../fixtures/external/sparql/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, DIR));
type Row = Record<string, unknown>;

async function table(name: string): Promise<ColumnTable> {
  const result = await readSparqlResults(read(name), {
    format: "json",
    lang: true,
    datatype: true,
  });
  assert.ok(typeof result !== "boolean");
  return result;
}

Deno.test("external WDQS: an ASK answer is its boolean", async () => {
  assert.equal(await readSparqlResults(read("pywikibot/ask_true.srj"), { format: "json" }), true);
});

Deno.test("external WDQS: items, dateTimes and language-tagged labels (pywikibot)", async () => {
  const t = await table("pywikibot/select_cats.srj");
  assert.deepEqual(t.columnNames().slice(0, 3), ["cat", "d", "catLabel"]);
  assert.equal(columnTypes(t).d, "date");
  const rows = t.objects() as Row[];
  assert.deepEqual(rows.map((r) => r.cat), [
    "http://www.wikidata.org/entity/Q498787",
    "http://www.wikidata.org/entity/Q677525",
  ]);
  assert.deepEqual(rows.map((r) => (r.d as Date).toISOString()), [
    "1955-01-01T00:00:00.000Z",
    "2015-06-22T00:00:00.000Z",
  ]);
  assert.deepEqual(rows.map((r) => [r.catLabel, r.catLabel_lang]), [
    ["Muezza", "en"],
    ["Orangey", "en"],
  ]);
});

Deno.test("external WDQS: 15 variables, unbound OPTIONALs are null columns (wikibase-sdk)", async () => {
  const text = read("wikibase-sdk/sparql_results_with_optional_values.srj");
  const vars = JSON.parse(text).head.vars as string[];
  const t = await table("wikibase-sdk/sparql_results_with_optional_values.srj");
  assert.equal(t.numRows(), 1);
  // Every variable is a column, in the head's order, bound or not.
  assert.deepEqual(t.columnNames().filter((name) => !/_(lang|datatype)$/.test(name)), vars);
  const [row] = t.objects() as Row[];
  for (const unbound of ["genre", "genreLabel", "musicBrainzRGId"]) {
    assert.equal(row[unbound], null, unbound);
  }
  assert.equal(row.duration, 94, "xsd:decimal is a number");
  assert.equal((row.publicationDate as Date).toISOString(), "2013-01-01T00:00:00.000Z");
  assert.equal(row.label, "Tarzan");
  assert.equal(row.label_lang, "fr");
  assert.equal(row.originalTitle_lang, "en");
  assert.equal(row.imdbId, "tt1705952");
  assert.equal(row.imdbId_lang, null, "a plain literal has no language");
  assert.equal(row.wikiLink, "https://fr.wikipedia.org/wiki/Tarzan%20%28film%2C%202013%29");
});

Deno.test("external WDQS: a blank node among IRIs, integer years (wikibase-sdk)", async () => {
  const t = await table("wikibase-sdk/multi_vars_sparql_results.srj");
  const rows = t.objects() as Row[];
  assert.equal(rows.length, 3);
  assert.equal(columnTypes(t).year, "number");
  assert.deepEqual(rows.map((r) => r.year), [1903, 1970, 1937]);
  assert.equal(rows[0].entity, "http://www.wikidata.org/entity/Q3731207");
  assert.equal(rows[1].entity, "_:t284055162", "a blank node keeps its _: label");
  assert.deepEqual(rows.map((r) => r.entityLabel_lang), ["en", "en", "en"]);
  assert.equal(rows[1].year_datatype, "http://www.w3.org/2001/XMLSchema#integer");
});
