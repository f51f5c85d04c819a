/**
 * identify() and getRecord() under `strict`: the real answers of
 * tests/fixtures/external/oai pass without a warning; pyoai's derived
 * Identify (earliestDatestamp `aaaa-bb-cc`) and records cut from real ones
 * are a ProtocolError `unknownShape` with strict, one warning without.
 */

import assert from "node:assert/strict";
import { ProtocolError } from "../../../lib/errors/errors.ts";
import { fixtureClient, readFixture, serveFixtures } from "./_oai_fixtures.ts";

/** Rejects with a ProtocolError of code unknownShape whose message matches. */
async function rejectsUnknownShape(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(error instanceof ProtocolError, String(error));
    assert.equal(error.code, "unknownShape");
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("external Identify answers that follow OAI-PMH 2.0 pass strict without a warning", async () => {
  for (const file of ["pyoai/fake1/00001.xml", "phpoaipmh/GoodResponseIdentify.xml"]) {
    const server = serveFixtures(() => file);
    try {
      const warnings: string[] = [];
      const identify = await fixtureClient(server, warnings).identify({ strict: true });
      assert.equal(identify.protocolVersion, "2.0", file);
      assert.deepEqual(warnings, [], file);
    } finally {
      await server.close();
    }
  }
});

Deno.test("external pyoai fake5: strict refuses an Identify whose earliestDatestamp is no date", async () => {
  const server = serveFixtures(() => "pyoai/fake5/00001.xml");
  try {
    const warnings: string[] = [];
    const oai = fixtureClient(server, warnings);
    await rejectsUnknownShape(oai.identify({ strict: true }), /earliestDatestamp .*aaaa-bb-cc/);
    // A harvest that needs the granularity asks Identify with its own strict.
    await rejectsUnknownShape(
      oai.harvest({ strict: true, from: "2003-04-10T00:00:00Z" }),
      /earliestDatestamp/,
    );
    assert.deepEqual(warnings, []);
    // Without strict: read as far as it goes, warned once per client.
    assert.equal((await oai.identify()).earliestDatestamp, "aaaa-bb-cc");
    await oai.identify();
    assert.equal(warnings.length, 1, warnings.join("\n"));
    await rejectsUnknownShape(oai.identify({ strict: true }), /earliestDatestamp/);
  } finally {
    await server.close();
  }
});

Deno.test("Identify without required elements and with unknown values is reported", async () => {
  const real = readFixture("pyoai/fake1/00001.xml");
  const body = real.replace(/<adminEmail>[^<]*<\/adminEmail>/g, "")
    .replace(/<granularity>[^<]*<\/granularity>/, "<granularity>YYYY</granularity>")
    .replace(/<deletedRecord>[^<]*<\/deletedRecord>/, "<deletedRecord>sometimes</deletedRecord>");
  assert.notEqual(body, real);
  const server = serveFixtures(() => ({ body }));
  try {
    const warnings: string[] = [];
    const oai = fixtureClient(server, warnings);
    await rejectsUnknownShape(
      oai.identify({ strict: true }),
      /no adminEmail.*deletedRecord sometimes.*granularity YYYY/,
    );
    const identify = await oai.identify();
    assert.equal(identify.granularity, "YYYY-MM-DD", "an unknown granularity is read as days");
    assert.equal(warnings.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("external GetRecord answers pass strict, deleted records without metadata included", async () => {
  const cases: [string, string, string][] = [
    ["pyoai/fake1/00004.xml", "hdl:1765/315", "oai_dc"],
    ["pyoai/fake2/00000.xml", "hdl:1765/1160", "oai_dc"],
    ["dnb/GetRecord.xml", "oai:dnb.de/authorities:sachbegriff/1074025261", "MARC21plus-1-xml"],
    ["phpoaipmh/GoodResponseSingleRecord.xml", "oai:nsdl.org:2200/20061003062336249T", "nsdl_dc"],
  ];
  for (const [file, identifier, prefix] of cases) {
    const server = serveFixtures(() => file);
    try {
      const warnings: string[] = [];
      const record = await fixtureClient(server, warnings).getRecord(identifier, prefix, {
        strict: true,
      });
      assert.equal(record.identifier, identifier, file);
      assert.deepEqual(warnings, [], file);
    } finally {
      await server.close();
    }
  }
});

Deno.test("GetRecord: a record without metadata or with an unreadable datestamp is reported", async () => {
  const real = readFixture("pyoai/fake1/00004.xml");
  const bodies = {
    noMetadata: real.replace(/<metadata>.*<\/metadata>/s, ""),
    badDatestamp: real.replace(/<datestamp>[^<]*</, "<datestamp>yesterday<"),
    twoRecords: real.replace(/(<record>.*<\/record>)/s, "$1$1"),
  };
  const expected = {
    noMetadata: /no metadata/,
    badDatestamp: /datestamp yesterday is not a date/,
    twoRecords: /2 records/,
  };
  for (const [name, body] of Object.entries(bodies) as [keyof typeof bodies, string][]) {
    assert.notEqual(body, real, name);
    const server = serveFixtures(() => ({ body }));
    try {
      const warnings: string[] = [];
      const oai = fixtureClient(server, warnings);
      await rejectsUnknownShape(
        oai.getRecord("hdl:1765/315", "oai_dc", { strict: true }),
        expected[name],
      );
      const record = await oai.getRecord("hdl:1765/315");
      assert.equal(record.identifier, "hdl:1765/315", name);
      assert.equal(warnings.length, 1, name);
      assert.match(warnings[0], expected[name]);
    } finally {
      await server.close();
    }
  }
});
