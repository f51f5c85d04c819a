/**
 * `xml:lang` in flattened metadata: a companion `<field>@xml:lang` column,
 * one language per value, the language in scope (the element's own or an
 * enclosing element's), and none where no value has one.
 */

import assert from "node:assert/strict";
import { parseXml } from "../../../lib/xml/xml.ts";
import { readRecord } from "../../../lib/archive/oai/_records.ts";

async function record(metadata: string, prefix = "oai_dc") {
  const text = `<record xmlns="http://www.openarchives.org/OAI/2.0/"><header>
    <identifier>oai:x:1</identifier><datestamp>2024-01-01</datestamp></header>
    <metadata>${metadata}</metadata></record>`;
  const root = await parseXml(text, "record", "", { trim: false });
  return readRecord(root.record, prefix)!;
}

Deno.test("xml:lang: each value's language beside it, inherited from an enclosing element", async () => {
  const { metadata } = await record(
    `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"
      xmlns:dc="http://purl.org/dc/elements/1.1/" xml:lang="ja">
      <dc:title>地図</dc:title><dc:title xml:lang="en">A map </dc:title>
      <dc:title xml:lang="">No language</dc:title><dc:creator>Someone</dc:creator>
    </oai_dc:dc>`,
  );
  assert.deepEqual(metadata["dc:title"], ["地図", "A map ", "No language"]);
  assert.deepEqual(metadata["dc:title@xml:lang"], ["ja", "en", ""]);
  assert.deepEqual(metadata["dc:creator@xml:lang"], ["ja"]);
});

Deno.test("xml:lang: no companion column where no value has a language, in any format", async () => {
  const dc = await record(
    `<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"
      xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title> Plain </dc:title></oai_dc:dc>`,
  );
  assert.deepEqual(dc.metadata, { "dc:title": [" Plain "] });
  const mods = await record(
    `<mods xmlns="http://www.loc.gov/mods/v3"><titleInfo xml:lang="de"><title>Karte</title>
      </titleInfo><titleInfo><title>Map</title></titleInfo><note/></mods>`,
    "mods",
  );
  const names = Object.keys(mods.metadata);
  const field = names.find((name) => name.endsWith("title") && !name.includes("@"))!;
  assert.deepEqual(mods.metadata[field], ["Karte", "Map"]);
  assert.deepEqual(mods.metadata[`${field}@xml:lang`], ["de", ""]);
  assert.equal(names.filter((name) => name.includes("@")).length, 1, names.join());
});
