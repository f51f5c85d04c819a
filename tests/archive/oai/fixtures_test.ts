import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { ProtocolError } from "../../../lib/errors/errors.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";

const DIR = new URL("../../fixtures/oai-pmh/", import.meta.url);
const read = (name: string) => Deno.readTextFile(new URL(name, DIR));

/**
 * Serves the sickle responses: the resumption tokens in the fixtures are the
 * file names of the next pages; `metadataPrefix` names an error fixture.
 */
function startFixtureServer(extra: Record<string, string> = {}) {
  return serveLocal(async (request) => {
    const q = new URL(request.url).searchParams;
    const verb = q.get("verb") ?? "";
    let file = q.get("resumptionToken") ?? `${verb}.xml`;
    if (verb === "GetRecord" && q.get("identifier") === "utf8") file = "GetRecord_utf8test.xml";
    const prefix = q.get("metadataPrefix");
    if (prefix && prefix !== "oai_dc") file = `${prefix}.xml`;
    const body = extra[file] ?? await read(file);
    return new Response(body, { headers: { "content-type": "text/xml" } });
  });
}

function client(url: string, warnings: string[] = []) {
  // The recorded answers are one list each: read one list at a time.
  return new OaiPmh(`${url}/oai`, {
    progress: false,
    concurrency: 1,
    warn: (m) => warnings.push(m),
  });
}

Deno.test("sickle: the four-page ListRecords chain with a deleted record", async () => {
  const server = startFixtureServer();
  try {
    const warnings: string[] = [];
    const pages: number[] = [];
    const oai = client(server.url, warnings);
    for await (const page of oai.harvestRecords()) {
      pages.push(page.records.length);
      assert.equal(page.completeListSize, 8, "announced on page 1 and kept");
    }
    // Pages 2-4 repeat the records of page 1; page 4 adds a header without identifier.
    // Pages with nothing new are not handed on, except the last, which ends the harvest.
    assert.deepEqual(pages, [2, 0]);
    const table = await oai.harvest();
    assert.equal(server.requestCount, 8);
    assert.equal(table.numRows(), 2);
    const [deleted, live] = table.objects() as Record<string, unknown>[];
    assert.equal(deleted.identifier, "oai:test.example.com:1585310");
    assert.equal(deleted.deleted, true);
    assert.equal((deleted.datestamp as Date).toISOString(), "2011-07-18T16:31:00.000Z");
    assert.equal(deleted["dc:title"], null);
    assert.equal(live.identifier, "oai:test.example.com:1585322");
    assert.equal(live.deleted, false);
    assert.deepEqual(live["dc:title"], ["Sample Title"]);
    assert.deepEqual(live["dc:creator"], ["John Doe", "John Doe", "John Doe", "John Doe"]);
    assert.deepEqual(live["dc:type"], [
      "info:eu-repo/semantics/article",
      "doc-type:article",
      "text",
    ]);
    // Text is kept as sent, this repository's line breaks and indentation included.
    assert.deepEqual(live["dc:publisher"], [
      "\n                        Sample Publisher\n                    ",
    ]);
    assert.deepEqual(live["dc:date"], ["2010"]);
    assert.match((live["dc:description"] as string[])[0], /^Lorem ipsum/);
    // Its xml:lang is kept beside it, one language per value.
    assert.deepEqual(live["dc:description@xml:lang"], ["eng"]);
    assert.deepEqual(deleted["dc:description@xml:lang"], null);
    assert.ok(warnings.some((w) => /without an identifier|no identifier/.test(w)), warnings.join());
    assert.ok(!warnings.some((w) => /completeListSize/.test(w)), "8 announced, 8 arrived");
  } finally {
    await server.close();
  }
});

Deno.test("sickle: ListIdentifiers over two pages", async () => {
  const server = startFixtureServer();
  try {
    const table = await client(server.url).harvest({ verb: "ListIdentifiers" });
    const rows = table.objects() as Record<string, unknown>[];
    assert.deepEqual(rows.map((r) => [r.identifier, r.deleted]), [
      ["oai:test.example.com::1585310", false],
      ["oai:test.example.com::1585576", true],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("sickle: Identify, ListSets, ListMetadataFormats and the UTF-8 record", async () => {
  const server = startFixtureServer();
  try {
    const oai = client(server.url);
    const info = await oai.identify();
    assert.equal(info.repositoryName, "A Test Repository");
    assert.equal(info.granularity, "YYYY-MM-DD");
    assert.equal(info.deletedRecord, "persistent");
    assert.deepEqual(info.adminEmail, ["john.doe@example.com"]);
    assert.equal(info.repositoryIdentifier, "test.example.com");
    const sets = await oai.listSets();
    const text = await read("ListSets.xml");
    assert.equal(sets.numRows(), text.match(/<set>/g)!.length);
    assert.deepEqual(sets.objects()[0], {
      setSpec: "bi",
      setName: "All BI publications (already published)",
      setDescription: null,
    });
    const formats = await oai.listMetadataFormats();
    assert.deepEqual(formats.array("metadataPrefix"), [
      "epicur",
      "xMetaDissPlus",
      "oai_dc",
      "mods",
      "swepub_mods",
    ]);
    const record = await oai.getRecord("utf8");
    assert.deepEqual(record.metadata["dc:creator"], ["某人"]);
    assert.equal(record.identifier, "oai:test.example.com:1996652");
    const plain = await oai.getRecord("other");
    assert.equal(plain.identifier, "oai:test.example.com:1996652");
  } finally {
    await server.close();
  }
});

Deno.test("sickle: every error code; noRecordsMatch is an empty table", async () => {
  const server = startFixtureServer();
  try {
    const oai = client(server.url);
    const empty = await oai.harvest({ metadataPrefix: "noRecordsMatch" });
    assert.equal(empty.numRows(), 0);
    assert.deepEqual(empty.columnNames(), ["identifier", "datestamp", "setSpec", "deleted"]);
    const codes = [
      "badArgument",
      "badResumptionToken",
      "cannotDisseminateFormat",
      "idDoesNotExist",
      "noSetHierarchy",
      "undefinedError",
    ];
    for (const code of codes) {
      const error = await oai.harvest({ metadataPrefix: code }).then(() => undefined, (e) => e);
      assert.ok(error instanceof ProtocolError, `${code}: ${error}`);
      assert.equal(error.code, code);
    }
    const id = await oai.harvest({ metadataPrefix: "idDoesNotExist" }).catch((e) => e);
    assert.match(id.message, /maps to no known item/);
  } finally {
    await server.close();
  }
});

Deno.test("sickle: the broken body is a clear parse error", async () => {
  const server = startFixtureServer();
  try {
    const error = await client(server.url).harvest({ metadataPrefix: "ListRecordsBroken" })
      .then(() => undefined, (e) => e);
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, "invalidXml");
    assert.match(error.message, /Cannot parse the OAI-PMH ListRecords response/);
    assert.match(error.message, /not well-formed XML/);
    assert.match(error.message, /line 1/);
  } finally {
    await server.close();
  }
});

Deno.test("a billion-laughs body is refused at once, and truncated XML is an error", async () => {
  const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<OAI-PMH><ListRecords><record><header><identifier>&lol9;</identifier></header></record></ListRecords></OAI-PMH>`;
  const full = await read("ListRecords4.xml");
  const server = startFixtureServer({
    "laughs.xml": laughs,
    "truncated.xml": full.slice(0, full.length / 2),
  });
  try {
    const oai = client(server.url);
    // Refused before any expansion: it answers in milliseconds, a loaded machine's
    // tens of them; expanding the billion would take minutes, or all the memory.
    const started = performance.now();
    const error = await oai.harvest({ metadataPrefix: "laughs" }).then(() => undefined, (e) => e);
    assert.ok(performance.now() - started < 20_000);
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /declares entities/);
    const truncated = await oai.harvest({ metadataPrefix: "truncated" }).catch((e) => e);
    assert.ok(truncated instanceof ProtocolError);
    assert.equal(truncated.code, "invalidXml");
  } finally {
    await server.close();
  }
});
