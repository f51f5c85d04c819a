import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { columnTypes } from "../../../lib/table/build_table.ts";
import { NotFoundError, ProtocolError } from "../../../lib/errors/errors.ts";
import { seedOaiRecords, startOaiSandbox } from "../../../lib/sandbox/archive/oai/mod.ts";
import type { OaiSandboxRecord } from "../../../lib/sandbox/archive/oai/mod.ts";
import type { ColumnTable } from "arquero";
import { SANDBOX_NOW } from "../../../lib/sandbox/sandbox_now.ts";

type Row = Record<string, unknown>;
const rows = (table: ColumnTable): Row[] => table.objects() as Row[];

const SITE = "acme/letters";

/** A harvester; `concurrency: 1` for the one-list walk whose requests a test counts. */
function client(url: string, warnings: string[] = [], concurrency?: number) {
  return new OaiPmh(`${url}/${SITE}/api/oai`, {
    progress: false,
    concurrency,
    warn: (m) => warnings.push(m),
    retry: { retries: 3, baseDelayMs: 10 },
  });
}

function expectedRow(record: OaiSandboxRecord) {
  return {
    identifier: record.identifier,
    datestamp: record.datestamp,
    setSpec: record.setSpec,
    deleted: !!record.deleted,
    title: record.deleted ? null : record.dc.title,
    creator: record.deleted ? null : record.dc.creator,
  };
}

Deno.test("a multi-page oai_dc harvest matches the sandbox record by record", async () => {
  const sandbox = startOaiSandbox({ pageSize: 40 });
  try {
    const oai = client(sandbox.url, [], 1);
    const table = await oai.harvest({ metadataPrefix: "oai_dc" });
    const records = sandbox.records[SITE];
    assert.equal(table.numRows(), records.length);
    assert.equal(sandbox.providers[SITE].hits.get("ListRecords"), Math.ceil(records.length / 40));
    const types = columnTypes(table);
    assert.equal(types.datestamp, "date");
    assert.equal(types.setSpec, "array");
    assert.equal(types.deleted, "boolean");
    assert.equal(types["dc:title"], "array");
    const byId = new Map(rows(table).map((row) => [row.identifier as string, row]));
    for (const record of records) {
      const row = byId.get(record.identifier);
      assert.ok(row, `missing ${record.identifier}`);
      const want = expectedRow(record);
      assert.equal((row.datestamp as Date).toISOString().replace(".000Z", "Z"), want.datestamp);
      assert.deepEqual(row.setSpec, want.setSpec);
      assert.equal(row.deleted, want.deleted);
      assert.deepEqual(row["dc:title"], want.title);
      assert.deepEqual(row["dc:creator"], want.creator);
      if (!record.deleted) {
        assert.deepEqual(row["dc:description"], record.dc.description ?? null);
      }
    }
    assert.ok(records.some((r) => r.deleted), "the seed has deleted records");
    assert.ok(
      records.some((r) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(r.dc.title[0])),
      "Japanese titles are present",
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("jps records are flattened into their fields, nested ones with a dot", async () => {
  const sandbox = startOaiSandbox({ pageSize: 100 });
  try {
    const oai = client(sandbox.url);
    const table = await oai.harvest({ metadataPrefix: "jps", set: "map" });
    const maps = sandbox.records[SITE].filter((r) => r.setSpec.includes("map"));
    assert.equal(table.numRows(), maps.length);
    const row = rows(table).find((r) => !r.deleted)!;
    const source = maps.find((r) => r.identifier === row.identifier)!;
    assert.deepEqual(row["schema:name"], source.jps!["schema:name"]);
    assert.deepEqual(row["jps:accessInfo"], source.jps!["jps:accessInfo"]);
    assert.deepEqual(
      row["jps:sourceInfo.schema:provider"],
      source.jps!["jps:sourceInfo.schema:provider"],
    );
    assert.equal(row["rdf:about"]?.toString(), `${sandbox.url}/${SITE}/data/${source.slug}`);
  } finally {
    await sandbox.close();
  }
});

Deno.test("ListIdentifiers, from/until windows and sets", async () => {
  const sandbox = startOaiSandbox({ pageSize: 30 });
  try {
    const oai = client(sandbox.url);
    const records = sandbox.records[SITE];
    const sorted = records.map((r) => r.datestamp).sort();
    const from = sorted[50];
    const until = sorted[150];
    const table = await oai.harvest({ verb: "ListIdentifiers", from, until, set: "item" });
    const want = records.filter((r) =>
      r.datestamp >= from && r.datestamp <= until && r.setSpec.includes("item")
    );
    assert.deepEqual(table.columnNames(), ["identifier", "datestamp", "setSpec", "deleted"]);
    assert.deepEqual(
      (table.array("identifier") as string[]).slice().sort(),
      want.map((r) => r.identifier).sort(),
    );
    const byDate = await oai.harvest({ from: new Date(from), until: new Date(until) });
    assert.equal(
      byDate.numRows(),
      records.filter((r) => r.datestamp >= from && r.datestamp <= until).length,
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("an empty or self-closing last token ends the harvest", async () => {
  const sandbox = startOaiSandbox({ pageSize: 60 });
  try {
    const oai = client(sandbox.url, [], 1);
    const plain = await oai.harvest();
    sandbox.providers[SITE].faults.selfClosingLastToken = true;
    const selfClosing = await oai.harvest();
    assert.equal(plain.numRows(), sandbox.records[SITE].length);
    assert.equal(selfClosing.numRows(), sandbox.records[SITE].length);
    assert.equal(sandbox.providers[SITE].hits.get("ListRecords"), 2 * Math.ceil(250 / 60));
  } finally {
    await sandbox.close();
  }
});

Deno.test("records repeated across pages are kept once, the latest datestamp wins", async () => {
  const sandbox = startOaiSandbox({ pageSize: 50 });
  try {
    const records = sandbox.records[SITE];
    const newer = { ...records[3], datestamp: "2031-01-01T00:00:00Z" };
    newer.dc = { ...newer.dc, title: ["改訂版", "Revised"] };
    records.push(newer);
    sandbox.providers[SITE].faults.repeatAcrossPages = true;
    const pages: number[] = [];
    const oai = client(sandbox.url);
    for await (const page of oai.harvestRecords()) pages.push(page.records.length);
    const table = await oai.harvest();
    assert.equal(table.numRows(), records.length - 1);
    assert.equal(new Set(table.array("identifier") as string[]).size, table.numRows());
    const row = rows(table).find((r) => r.identifier === newer.identifier)!;
    assert.equal((row.datestamp as Date).getUTCFullYear(), 2031);
    if (!newer.deleted) assert.deepEqual(row["dc:title"], ["改訂版", "Revised"]);
    // The stream drops the repeats as well: every page but the last holds 50 new records.
    assert.equal(pages.reduce((a, b) => a + b, 0), records.length);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a record repeated thousands of records later is still given once", async () => {
  // More records than the harvester keeps in its map of latest identifiers
  // (8,192, frozen between pages): the first record must be found again
  // among the frozen ones.
  const site = "acme/many";
  const sandbox = startOaiSandbox({
    sites: { [site]: { records: seedOaiRecords({ count: 12_000, site }), pageSize: 1_000 } },
  });
  try {
    let first: string | undefined;
    // The last page repeats the first record of the first page, as a
    // repository whose list shifted under the harvest may.
    const repeating: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      let body = await response.text();
      first ??= /<record>.*?<\/record>/s.exec(body)?.[0];
      if (/<resumptionToken[^>]*><\/resumptionToken>/.test(body)) {
        body = body.replace("<resumptionToken", `${first}<resumptionToken`);
      }
      return new Response(body, {
        status: response.status,
        headers: { "content-type": "text/xml" },
      });
    };
    const oai = new OaiPmh(`${sandbox.url}/${site}/api/oai`, { progress: false, fetch: repeating });
    const identifiers: string[] = [];
    for await (const page of oai.harvestRecords()) {
      identifiers.push(...page.records.map((r) => r.identifier));
    }
    assert.ok(first, "the first page had a record to repeat");
    assert.equal(identifiers.length, 12_000);
    assert.equal(new Set(identifiers).size, 12_000);
  } finally {
    await sandbox.close();
  }
});

Deno.test("noRecordsMatch is an empty table with the same columns", async () => {
  const sandbox = startOaiSandbox();
  try {
    const oai = client(sandbox.url);
    // After the sandbox's newest datestamp (its clock), yet not in the future, which is refused.
    const after = new Date(SANDBOX_NOW + 86_400_000).toISOString().slice(0, 10);
    const empty = await oai.harvest({ from: after });
    assert.equal(empty.numRows(), 0);
    assert.deepEqual(empty.columnNames(), (await oai.harvest({ set: "map" })).columnNames());
    assert.equal(columnTypes(empty).datestamp, "date");
    const ids = await oai.harvest({ verb: "ListIdentifiers", from: after });
    assert.deepEqual(ids.columnNames(), ["identifier", "datestamp", "setSpec", "deleted"]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("protocol errors are ProtocolErrors with code and text", async () => {
  const sandbox = startOaiSandbox();
  try {
    const oai = client(sandbox.url);
    const expectCode = async (code: string, run: () => Promise<unknown>) => {
      const error = await run().then(() => undefined, (e) => e);
      assert.ok(error instanceof ProtocolError, `expected ${code}, got ${error}`);
      assert.equal(error.code, code);
      assert.match(error.message, new RegExp(code));
      assert.ok(error.hint);
    };
    await expectCode("cannotDisseminateFormat", () => oai.harvest({ metadataPrefix: "marc" }));
    await expectCode("idDoesNotExist", () => oai.getRecord("oai:nowhere:1"));
    await expectCode("badArgument", () => oai.harvest({ from: "2020-01-01", until: "2019-01-01" }));
    const deleted = sandbox.records[SITE].find((r) => r.deleted)!;
    await expectCode(
      "noMetadataFormats",
      () => oai.listMetadataFormats({ identifier: deleted.identifier }),
    );
    sandbox.providers[SITE].faults.noSets = true;
    await expectCode("noSetHierarchy", () => oai.listSets());
    await expectCode("noSetHierarchy", () => oai.harvest({ set: "map" }));
    const raw = await fetch(`${sandbox.url}/${SITE}/api/oai?verb=Nope`);
    assert.equal(raw.status, 200);
    assert.match(await raw.text(), /code="badVerb"/);
    const token = await fetch(`${sandbox.url}/${SITE}/api/oai?verb=ListRecords&resumptionToken=zz`);
    assert.match(await token.text(), /code="badResumptionToken"/);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a private site answers 404 with a clear error", async () => {
  const sandbox = startOaiSandbox();
  try {
    const oai = new OaiPmh(`${sandbox.url}/acme/private/api/oai`, { progress: false });
    const error = await oai.identify().then(() => undefined, (e) => e);
    assert.ok(error instanceof NotFoundError);
    assert.match(error.message, /OAI-PMH is not offered/);
    assert.match(error.message, /public/);
  } finally {
    await sandbox.close();
  }
});

Deno.test("Identify, ListMetadataFormats, ListSets and GetRecord", async () => {
  const sandbox = startOaiSandbox();
  try {
    const oai = client(sandbox.url);
    const info = await oai.identify();
    assert.equal(info.protocolVersion, "2.0");
    assert.equal(info.granularity, "YYYY-MM-DDThh:mm:ssZ");
    assert.equal(info.baseURL, `${sandbox.url}/${SITE}/api/oai`);
    const formats = await oai.listMetadataFormats();
    assert.deepEqual(formats.array("metadataPrefix"), ["oai_dc", "jps"]);
    const sets = await oai.listSets();
    const specs = new Set(sandbox.records[SITE].flatMap((r) => r.setSpec));
    assert.deepEqual((sets.array("setSpec") as string[]).slice().sort(), [...specs].sort());
    assert.equal(rows(sets).find((s) => s.setSpec === "map")?.setName, "Maps");
    const source = sandbox.records[SITE].find((r) => !r.deleted)!;
    const record = await oai.getRecord(source.identifier);
    assert.deepEqual(record.metadata["dc:title"], source.dc.title);
    assert.deepEqual(record.setSpec, source.setSpec);
  } finally {
    await sandbox.close();
  }
});
