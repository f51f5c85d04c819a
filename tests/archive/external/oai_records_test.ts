/**
 * Real OAI-PMH records (tests/fixtures/external/oai, see its SOURCES.md):
 * every element's text of every record reaches the harvest table, and each
 * format gives namespace-prefixed columns that never take a header's name.
 */

import assert from "node:assert/strict";
import type { ColumnTable } from "arquero";
import {
  fixtureClient,
  readFixture,
  recordsInDom,
  serveFixtures,
  wrapRecord,
} from "./_oai_fixtures.ts";

type Row = Record<string, unknown>;

/** Harvests one recorded ListRecords page (the first page when the recording continues). */
async function harvestPage(body: string, metadataPrefix: string): Promise<ColumnTable> {
  const server = serveFixtures((q) => q.has("resumptionToken") ? undefined : { body });
  try {
    const oai = fixtureClient(server);
    // Only the first page is recorded: read it through the page iterator.
    const records = [];
    for await (const page of oai.harvestRecords({ metadataPrefix })) {
      records.push(...page.records);
      break;
    }
    const { TableBuilder } = await import("../../../lib/table/build_table.ts");
    const { recordSchema, dcRecordSchema } = await import("../../../lib/archive/oai/_schemas.ts");
    const builder = new TableBuilder(metadataPrefix === "oai_dc" ? dcRecordSchema : recordSchema, {
      dynamic: { read: (r) => r.metadata, type: "array" },
    });
    builder.add(records);
    return builder.build();
  } finally {
    await server.close();
  }
}

/** Harvests a whole recorded ListRecords answer (no resumption token) into the table. */
async function harvestAll(body: string, metadataPrefix: string): Promise<ColumnTable> {
  const server = serveFixtures((q) => q.has("resumptionToken") ? undefined : { body });
  try {
    return await fixtureClient(server).harvest({ metadataPrefix });
  } finally {
    await server.close();
  }
}

/** Asserts that each element text of each record is a value of that record's row. */
function assertNothingDropped(body: string, table: ColumnTable) {
  const expected = recordsInDom(body);
  const rows = table.objects() as Row[];
  const headers = new Set(["identifier", "datestamp", "setSpec", "deleted"]);
  assert.ok(expected.length > 0);
  for (const record of expected) {
    const row = rows.find((r) => r.identifier === record.identifier);
    assert.ok(row, `row of ${record.identifier}`);
    const values = new Map<string, number>();
    for (const [name, value] of Object.entries(row)) {
      if (headers.has(name) || !Array.isArray(value)) continue;
      for (const v of value) values.set(v, (values.get(v) ?? 0) + 1);
    }
    for (const text of record.texts) {
      const left = values.get(text) ?? 0;
      assert.ok(left > 0, `${record.identifier}: ${JSON.stringify(text)} is in the row`);
      values.set(text, left - 1);
    }
  }
}

const LIST_RECORDS: [string, string, "all" | "page"][] = [
  ["pyoai/fake1/00005.xml", "oai_dc", "all"],
  ["pyoai/fake2/00002.xml", "oai_dc", "all"],
  ["phpoaipmh/GoodResponseSinglePage.xml", "nsdl_dc", "all"],
  ["phpoaipmh/NamespacedSample.xml", "oai_dc", "page"],
  ["dnb/ListRecords.xml", "MARC21plus-1-xml", "all"],
  ["dpla/oai-page.xml", "mods", "page"],
];

for (const [name, prefix, how] of LIST_RECORDS) {
  Deno.test(`external OAI-PMH ${name}: every element of every record is in the table`, async () => {
    const body = readFixture(name);
    const table = how === "all" ? await harvestAll(body, prefix) : await harvestPage(body, prefix);
    assert.equal(table.numRows(), recordsInDom(body).length);
    assertNothingDropped(body, table);
  });
}

for (const name of ["dpla-records/bhl.xml", "dpla-records/oklahoma.xml"]) {
  Deno.test(`external OAI-PMH ${name}: default-namespace MODS keeps its identifiers`, async () => {
    const body = wrapRecord(name);
    const table = await harvestAll(body, "mods");
    assertNothingDropped(body, table);
    const [row] = table.objects() as Row[];
    // The header identifier stays the OAI identifier; MODS identifiers get their own column.
    const oaiIdentifier = recordsInDom(body)[0].identifier;
    assert.equal(row.identifier, oaiIdentifier);
    const modsIds = [...readFixture(name).matchAll(/<identifier type="[^"]+">([^<]+)</g)]
      .map((m) => m[1]);
    assert.ok(modsIds.length >= 2);
    assert.deepEqual(row["mods:identifier"], modsIds);
    assert.ok(Array.isArray(row["mods:titleInfo.title"]));
  });
}

Deno.test("external OAI-PMH oklahoma.xml: the about container is kept under about.", async () => {
  const table = await harvestAll(wrapRecord("dpla-records/oklahoma.xml"), "mods");
  const [row] = table.objects() as Row[];
  assert.deepEqual(row["about.oaiProvenance:originDescription.identifier"], [
    "oai:shareok.org:11244/50280",
  ]);
  assert.deepEqual(row["about.oaiProvenance:originDescription.baseURL"], [
    "https://shareok.org/oai/request",
  ]);
});

Deno.test("external OAI-PMH DNB MARCXML: fields are named by tag and subfield code", async () => {
  const table = await harvestAll(readFixture("dnb/ListRecords.xml"), "MARC21plus-1-xml");
  const [row] = table.objects() as Row[];
  assert.equal(row.identifier, "oai:dnb.de/authorities:sachbegriff/1074025261");
  assert.deepEqual(row["marc:001"], ["1074025261"]);
  assert.deepEqual(row["marc:003"], ["DE-101"]);
  assert.deepEqual(row["marc:150$a"], ["Rundbogenhalle"]);
  assert.deepEqual(row["marc:035$a"], ["(DE-101)1074025261", "(DE-588)1074025261"]);
  assert.deepEqual(row["marc:leader"], ["00000nz  a2200000nc 4500"]);
  assert.ok(!("marc:datafield" in row), "no column of merged subfields");
});

Deno.test("external OAI-PMH Harvard MODS: prefixed MODS, character references decoded", async () => {
  const table = await harvestPage(readFixture("dpla/oai-page.xml"), "mods");
  const rows = table.objects() as Row[];
  assert.equal(rows.length, 10);
  assert.equal(rows[0].identifier, "arn00007c00001");
  assert.deepEqual(rows[0]["mods:titleInfo.title"], ["Plate 1. Clematis cylindrica"]);
  const abstract = (rows[0]["mods:abstract"] as string[])[0];
  assert.match(abstract, /Herbier Général/, "&#xe9; is é");
  assert.ok(rows.every((r) => !Object.keys(r).some((k) => k.includes("&#"))));
});

Deno.test("external OAI-PMH NSDL nsdl_dc: Dublin Core columns with their prefixes", async () => {
  const body = readFixture("phpoaipmh/GoodResponseSinglePage.xml");
  const table = await harvestAll(body, "nsdl_dc");
  assert.equal(table.numRows(), 162);
  const [row] = table.objects() as Row[];
  assert.deepEqual(row["dc:title"], ["Molecular Structure of Dinitrophenol"]);
  const first = body.slice(body.indexOf("<metadata>"), body.indexOf("</record>"));
  const identifiers = [...first.matchAll(/<dc:identifier[^>]*>([^<]*)</g)].map((m) => m[1]);
  assert.equal(identifiers.length, 6);
  assert.deepEqual(row["dc:identifier"], identifiers);
  assert.deepEqual(row["dc:date"], ["2002-09-19T18:01:07Z", "2009-06-18T02:49:30Z"]);
  assert.equal(row.identifier, "oai:nsdl.org:2200/20061003062336249T");
});

Deno.test("external NSDL GetRecord: the single record as its ListRecords twin", async () => {
  const server = serveFixtures(() => "phpoaipmh/GoodResponseSingleRecord.xml");
  try {
    const body = readFixture("phpoaipmh/GoodResponseSingleRecord.xml");
    const record = await fixtureClient(server).getRecord(
      "oai:nsdl.org:2200/20061003062336249T",
      "nsdl_dc",
    );
    assert.equal(record.identifier, "oai:nsdl.org:2200/20061003062336249T");
    assert.equal(record.datestamp?.toISOString(), "2012-08-03T08:00:22.000Z");
    assert.deepEqual(record.setSpec, ["369642"]);
    const values = Object.values(record.metadata).flat();
    for (const text of recordsInDom(body)[0].texts) assert.ok(values.includes(text), text);
    assert.equal(record.metadata["dc:identifier"].length, 6);
  } finally {
    await server.close();
  }
});

/**
 * Formats without a recording here (the arXiv and DataCite recordings in
 * shared/fixtures are GPL and were not copied): records written after the
 * formats' schemas, oai_datacite 1.1 around DataCite kernel 4 as a default
 * namespace, and arXiv's own format.
 */
const BUILT_RECORDS = {
  oai_datacite: `<record><header><identifier>oai:zenodo.org:4021</identifier>
<datestamp>2024-02-01T10:00:00Z</datestamp></header><metadata>
<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/">
<schemaVersion>4</schemaVersion><datacentreSymbol>CERN.ZENODO</datacentreSymbol>
<payload><resource xmlns="http://datacite.org/schema/kernel-4">
<identifier identifierType="DOI">10.5281/zenodo.4021</identifier>
<creators><creator><creatorName>Curie, Marie</creatorName>
<nameIdentifier nameIdentifierScheme="ORCID">0000-0001-0000-0000</nameIdentifier></creator></creators>
<titles><title xml:lang="en">Tide gauge readings, Brest</title></titles>
<publisher>Zenodo</publisher><publicationYear>2024</publicationYear>
<dates><date dateType="Issued">2024-01-31</date></dates>
</resource></payload></oai_datacite></metadata></record>`,
  arXiv: `<record><header><identifier>oai:arXiv.org:0804.2273</identifier>
<datestamp>2008-04-15</datestamp><setSpec>physics:astro-ph</setSpec></header><metadata>
<arXiv xmlns="http://arxiv.org/OAI/arXiv/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<id>0804.2273</id><created>2008-04-14</created>
<authors><author><keyname>Bai</keyname><forenames>Xue-Ning</forenames></author>
<author><keyname>Stone</keyname><forenames>James M.</forenames></author></authors>
<title>Local Study of Accretion Disks</title><categories>astro-ph</categories>
<license>http://arxiv.org/licenses/nonexclusive-distrib/1.0/</license>
<abstract>We study the saturation of the magnetorotational instability.</abstract>
</arXiv></metadata></record>`,
};

const envelope = (records: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">` +
  `<responseDate>2024-02-02T00:00:00Z</responseDate><request verb="ListRecords">x</request>` +
  `<ListRecords>${records}</ListRecords></OAI-PMH>`;

Deno.test("DataCite: the DOI keeps its column, fields carry the datacite prefix", async () => {
  const body = envelope(BUILT_RECORDS.oai_datacite);
  const table = await harvestAll(body, "oai_datacite");
  assertNothingDropped(body, table);
  const [row] = table.objects() as Row[];
  assert.equal(row.identifier, "oai:zenodo.org:4021");
  assert.deepEqual(row["datacite:identifier"], ["10.5281/zenodo.4021"]);
  assert.deepEqual(row["datacite:creators.creator.creatorName"], ["Curie, Marie"]);
  assert.deepEqual(row["datacite:titles.title"], ["Tide gauge readings, Brest"]);
  assert.deepEqual(row["oai_datacite:datacentreSymbol"], ["CERN.ZENODO"]);
});

Deno.test("arXiv: the arXiv format's fields carry the arXiv prefix, license kept", async () => {
  const body = envelope(BUILT_RECORDS.arXiv);
  const table = await harvestAll(body, "arXiv");
  assertNothingDropped(body, table);
  const [row] = table.objects() as Row[];
  assert.deepEqual(row["arXiv:id"], ["0804.2273"]);
  assert.deepEqual(row["arXiv:authors.author.keyname"], ["Bai", "Stone"]);
  assert.deepEqual(row["arXiv:license"], ["http://arxiv.org/licenses/nonexclusive-distrib/1.0/"]);
  assert.deepEqual(row.setSpec, ["physics:astro-ph"]);
});
