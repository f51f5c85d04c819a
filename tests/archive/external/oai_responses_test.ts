/**
 * Real OAI-PMH responses (tests/fixtures/external/oai, see its SOURCES.md)
 * read as OAI-PMH 2.0 and XML 1.0 say: the repository description, sets,
 * formats, paging with completeListSize, protocol errors, and the broken
 * documents pyoai derived from a real Identify, each a ProtocolError.
 */

import assert from "node:assert/strict";
import { ProtocolError } from "../../../lib/errors/errors.ts";
import { fixtureClient, readFixture, recordsInDom, serveFixtures } from "./_oai_fixtures.ts";

type Row = Record<string, unknown>;

/** pyoai's recordings answer by verb (and, for fake2, by identifier). */
function pyoai(folder: "fake1" | "fake2" | "fake3" | "fake4" | "fake5") {
  return serveFixtures((q) => {
    const verb = q.get("verb");
    if (folder !== "fake1" && folder !== "fake2") return `pyoai/${folder}/00001.xml`;
    if (folder === "fake2") {
      if (verb === "ListRecords") return "pyoai/fake2/00002.xml";
      return q.get("identifier") === "hdl:1765/1160"
        ? "pyoai/fake2/00000.xml"
        : "pyoai/fake2/00001.xml";
    }
    const files: Record<string, string> = {
      ListSets: "00000.xml",
      Identify: "00001.xml",
      ListMetadataFormats: "00002.xml",
      ListIdentifiers: "00003.xml",
      GetRecord: "00004.xml",
      ListRecords: "00005.xml",
    };
    return verb && files[verb] ? `pyoai/fake1/${files[verb]}` : undefined;
  });
}

Deno.test("external pyoai (Erasmus DSpace 2003): Identify, sets, formats, headers", async () => {
  const server = pyoai("fake1");
  try {
    const oai = fixtureClient(server);
    const identify = await oai.identify();
    assert.equal(identify.protocolVersion, "2.0");
    assert.equal(identify.granularity, "YYYY-MM-DDThh:mm:ssZ");
    assert.ok(identify.repositoryName.length > 0);
    const sets = await oai.listSets();
    assert.equal(sets.numRows(), 10);
    assert.deepEqual((sets.objects() as Row[])[1], {
      setSpec: "3:5",
      setName: "EUR Medical Dissertations",
      setDescription: null,
    });
    const formats = (await oai.listMetadataFormats()).objects() as Row[];
    assert.deepEqual(formats, [{
      metadataPrefix: "oai_dc",
      schema: "http://www.openarchives.org/OAI/2.0/oai_dc.xsd",
      metadataNamespace: "http://www.openarchives.org/OAI/2.0/oai_dc/",
    }]);
    const headers = await oai.harvest({ verb: "ListIdentifiers", from: "2003-04-10T00:00:00Z" });
    const inFile = recordsInDom(readFixture("pyoai/fake1/00003.xml"));
    assert.deepEqual(headers.array("identifier"), inFile.map((r) => r.identifier));
    const record = await oai.getRecord("hdl:1765/315");
    assert.equal(record.identifier, "hdl:1765/315");
    assert.ok(record.metadata["dc:title"]?.length === 1);
  } finally {
    await server.close();
  }
});

Deno.test("external pyoai (Erasmus DSpace 2004): 81 records, 2 deleted, deleted GetRecord", async () => {
  const server = pyoai("fake2");
  try {
    const oai = fixtureClient(server);
    const table = await oai.harvest({ from: "2004-01-01T00:00:00Z" });
    const inFile = recordsInDom(readFixture("pyoai/fake2/00002.xml"));
    assert.equal(inFile.length, 81);
    assert.equal(table.numRows(), 81);
    assert.equal((table.array("deleted") as boolean[]).filter(Boolean).length, 2);
    const deleted = await oai.getRecord("hdl:1765/1160");
    assert.equal(deleted.deleted, true);
    assert.deepEqual(deleted.metadata, {});
  } finally {
    await server.close();
  }
});

for (
  const [folder, why] of [
    ["fake3", /unclosed tag: bogus|bogus/],
    ["fake4", /undefined entity|bogus/],
  ] as const
) {
  Deno.test(`external pyoai ${folder}: a document that is not well-formed is a ProtocolError`, async () => {
    const server = pyoai(folder);
    try {
      const error = await fixtureClient(server).identify().then(() => null, (e) => e);
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.code, "invalidXml");
      assert.match(error.message, /not well-formed XML/);
      assert.match(error.message, why);
    } finally {
      await server.close();
    }
  });
}

Deno.test("external pyoai fake5: an earliestDatestamp that is no date is reported", async () => {
  const server = pyoai("fake5");
  try {
    const warnings: string[] = [];
    const identify = await fixtureClient(server, warnings).identify();
    assert.equal(identify.earliestDatestamp, "aaaa-bb-cc", "the text as sent");
    assert.ok(warnings.some((w) => /earliestDatestamp.*aaaa-bb-cc/.test(w)), warnings.join());
  } finally {
    await server.close();
  }
});

Deno.test("external NSDL: ListIdentifiers over four pages, 733 as announced", async () => {
  const server = serveFixtures((q) => {
    const token = q.get("resumptionToken");
    if (q.get("verb") === "Identify") return "phpoaipmh/GoodResponseIdentify.xml";
    if (!token) return "phpoaipmh/GoodResponseFourPage_1.xml";
    const start = token.split("/").slice(0, 3).join("/");
    const page = { "0/200/733": 2, "200/400/733": 3, "400/600/733": 4 }[start];
    return page ? `phpoaipmh/GoodResponseFourPage_${page}.xml` : undefined;
  });
  try {
    const warnings: string[] = [];
    const oai = fixtureClient(server, warnings);
    const pages = [];
    for await (
      const page of oai.harvestRecords({
        verb: "ListIdentifiers",
        metadataPrefix: "nsdl_dc",
        from: "2012-07-26",
      })
    ) pages.push(page);
    assert.deepEqual(pages.map((p) => p.cursor), [0, 200, 400, 600]);
    assert.ok(pages.every((p) => p.completeListSize === 733));
    const identifiers = new Set(pages.flatMap((p) => p.records.map((r) => r.identifier)));
    assert.equal(pages.reduce((n, p) => n + p.records.length, 0), 733);
    assert.equal(identifiers.size, 733);
    assert.ok(!warnings.some((w) => /completeListSize/.test(w)), warnings.join());
    const identify = await oai.identify();
    assert.equal(identify.baseURL, "http://nsdl.org/oai");
  } finally {
    await server.close();
  }
});

Deno.test("external errors: badVerb and idDoesNotExist are ProtocolErrors with their codes", async () => {
  const server = serveFixtures((q) =>
    q.get("verb") === "GetRecord"
      ? "phpoaipmh/BadResponseInvalidRecord.xml"
      : "phpoaipmh/BadResponseNonExistentVerb.xml"
  );
  try {
    const oai = fixtureClient(server);
    const missing = await oai.getRecord("asdfasdfasdfasdfasdf").then(() => null, (e) => e);
    assert.ok(missing instanceof ProtocolError);
    assert.equal(missing.code, "idDoesNotExist");
    const badVerb = await oai.identify().then(() => null, (e) => e);
    assert.ok(badVerb instanceof ProtocolError);
    assert.equal(badVerb.code, "badVerb");
    assert.match(badVerb.message, /The verb 'NotExist' is illegal/, "&#39; decoded");
  } finally {
    await server.close();
  }
});

Deno.test("external DNB: noRecordsMatch is an empty table, ListIdentifiers and GetRecord", async () => {
  const server = serveFixtures((q) =>
    ({
      ListRecords: "dnb/ListRecords-noRecordsMatch.xml",
      ListIdentifiers: "dnb/ListIdentifiers.xml",
      GetRecord: "dnb/GetRecord.xml",
    })[q.get("verb") ?? ""]
  );
  try {
    const oai = fixtureClient(server);
    const none = await oai.harvest({ metadataPrefix: "MARC21plus-1-xml" });
    assert.equal(none.numRows(), 0);
    assert.deepEqual(none.columnNames(), ["identifier", "datestamp", "setSpec", "deleted"]);
    const headers = (await oai.harvest({ verb: "ListIdentifiers" })).objects() as Row[];
    assert.equal(headers.length, 1);
    assert.equal(headers[0].identifier, "oai:dnb.de/authorities:sachbegriff/1074025261");
    assert.equal((headers[0].datestamp as Date).toISOString(), "2024-01-31T13:33:40.000Z");
    assert.deepEqual(headers[0].setSpec, ["authorities:sachbegriff"]);
    const record = await oai.getRecord("oai:dnb.de/authorities:sachbegriff/1074025261");
    assert.deepEqual(record.metadata["marc:150$a"], ["Rundbogenhalle"]);
  } finally {
    await server.close();
  }
});

Deno.test("external Harvard: ListSets with oai_dc set descriptions", async () => {
  const server = serveFixtures(() => "dpla/oai-sets.xml");
  try {
    const sets = (await fixtureClient(server).listSets()).objects() as Row[];
    assert.equal(sets.length, 50);
    assert.equal(sets[0].setSpec, "crimes");
    assert.equal(
      sets[1].setName,
      "Studies in Scarlet: Marriage and Sexuality in the U.S. & U.K., 1815-1914",
    );
    assert.match(String(sets[0].setDescription), /Harvard University Library/);
  } finally {
    await server.close();
  }
});

Deno.test("external Harvard: a zone-less basic datestamp (20210311) is read as that day", async () => {
  const body = readFixture("dpla/oai-page.xml");
  const server = serveFixtures((q) => q.has("resumptionToken") ? undefined : { body });
  try {
    for await (const page of fixtureClient(server).harvestRecords({ metadataPrefix: "mods" })) {
      assert.equal(page.completeListSize, 4147);
      assert.equal(page.records.length, 10);
      assert.equal(page.records[0].datestampText, "20210311");
      assert.equal(page.records[0].datestamp?.toISOString(), "2021-03-11T00:00:00.000Z");
      break;
    }
  } finally {
    await server.close();
  }
});

/** NSDL's four recorded pages, with the second page's token refused `refusals` times. */
function nsdlWithRefusals(refusals: number) {
  let refused = 0;
  return serveFixtures((q) => {
    const token = q.get("resumptionToken");
    if (!token) return "phpoaipmh/GoodResponseFourPage_1.xml";
    const start = token.split("/").slice(0, 3).join("/");
    if (start === "0/200/733" && refused < refusals) {
      refused++;
      return undefined; // answered badResumptionToken
    }
    const page = { "0/200/733": 2, "200/400/733": 3, "400/600/733": 4 }[start];
    return page ? `phpoaipmh/GoodResponseFourPage_${page}.xml` : undefined;
  });
}

Deno.test("external NSDL: a token refused once restarts the window, and all 733 arrive", async () => {
  const server = nsdlWithRefusals(1);
  try {
    const warnings: string[] = [];
    const table = await fixtureClient(server, warnings).harvest({
      verb: "ListIdentifiers",
      metadataPrefix: "nsdl_dc",
    });
    assert.equal(table.numRows(), 733);
    assert.equal(new Set(table.array("identifier") as string[]).size, 733);
    assert.ok(warnings.some((w) => /restarting the window/.test(w)), warnings.join());
  } finally {
    await server.close();
  }
});

Deno.test("external NSDL: a token always refused ends in an error, not an endless harvest", async () => {
  const server = nsdlWithRefusals(Infinity);
  try {
    const error = await fixtureClient(server).harvest({
      verb: "ListIdentifiers",
      metadataPrefix: "nsdl_dc",
    }).then(() => null, (e) => e);
    assert.ok(error instanceof ProtocolError, String(error));
    assert.ok(server.requestCount < 20, `${server.requestCount} requests`);
  } finally {
    await server.close();
  }
});

Deno.test("strict: a record without an identifier is skipped with a warning, or an error", async () => {
  // pyoai's 2004 DSpace recording with the first record's identifier emptied.
  const body = readFixture("pyoai/fake2/00002.xml")
    .replace(/<identifier>[^<]*<\/identifier>/, "<identifier></identifier>");
  const server = serveFixtures((q) => q.has("resumptionToken") ? undefined : { body });
  try {
    const warnings: string[] = [];
    const table = await fixtureClient(server, warnings).harvest({});
    assert.equal(table.numRows(), 80);
    assert.ok(warnings.some((w) => /skipped 1 records whose header has no identifier/.test(w)));
    const error = await fixtureClient(server).harvest({ strict: true }).catch((e) => e);
    assert.ok(error instanceof ProtocolError, String(error));
    assert.equal(error.code, "unknownShape");
    assert.match(error.message, /a record whose header has no identifier/);
  } finally {
    await server.close();
  }
});
