/**
 * The harvester against the real Catmandu OAI-PMH 2.0 provider (Debian's
 * libdancer-plugin-catmandu-oai-perl): an incremental run gets the records
 * stamped in the same second as the last one it saw, each record exactly
 * once, deletions and changes replacing; text comes as sent; `raw` keeps
 * each record's XML as the provider sent it (fetched here apart).
 */

import assert from "node:assert/strict";
import { OaiPmh } from "../../../lib/archive/oai/mod.ts";
import { oaiId, type ProviderRecord, recordsAsSent, startProvider } from "./_provider_records.ts";

const T = "2024-05-06T07:08:09Z";

/** Ten records, `r00`..`r09`, the last two stamped in the second `T`. */
function night1(): ProviderRecord[] {
  return Array.from({ length: 10 }, (_, i) => ({
    _id: `r${String(i).padStart(2, "0")}`,
    datestamp: i >= 8 ? T : `2024-05-0${1 + Math.floor(i / 2)}T00:00:0${i}Z`,
    title: [`Record ${i}`],
  }));
}

function client(url: string, concurrency = 1) {
  return new OaiPmh(url, { progress: false, concurrency });
}

for (const concurrency of [1, 3]) {
  Deno.test(`real provider: an incremental run gets records stamped in the last run's second, each once (${concurrency} lists at a time)`, () =>
    incremental(concurrency));
}

async function incremental(concurrency: number) {
  const client = (url: string) => new OaiPmh(url, { progress: false, concurrency });
  await using provider = await startProvider(night1(), 3);
  const dir = await Deno.makeTempDir({ prefix: "tidepool-oai-incremental-" });
  try {
    const state = `${dir}/state.json`;
    const first = await client(provider.url).harvest({ state });
    assert.equal(first.numRows(), 10);
    const saved = JSON.parse(await Deno.readTextFile(state));
    assert.equal(saved.highWater, T);
    assert.deepEqual(saved.highWaterIdentifiers.sort(), [oaiId("r08"), oaiId("r09")]);

    // After the run: two records in the same second T, one later; r03 changed, r05 deleted.
    const records = night1();
    records[3] = { ...records[3], datestamp: "2024-05-07T00:00:00Z", title: ["Changed"] };
    records[5] = { _id: "r05", datestamp: "2024-05-07T00:00:01Z", deleted: true };
    records.push(
      { _id: "r10", datestamp: T, title: ["Same second, after the run"] },
      { _id: "r11", datestamp: T, title: ["Same second, after the run, too"] },
      { _id: "r12", datestamp: "2024-05-08T00:00:00Z", title: ["Later"] },
    );
    await provider.restart(records);
    const second = await client(provider.url).harvest({ state });
    const got = second.objects() as Record<string, unknown>[];
    assert.deepEqual(
      got.map((r) => r.identifier).sort(),
      ["r03", "r05", "r10", "r11", "r12"].map(oaiId),
      "the new records of second T, the change and the deletion; none of those already held",
    );
    const deleted = got.find((r) => r.identifier === oaiId("r05"))!;
    assert.equal(deleted.deleted, true);
    assert.equal(deleted["dc:title"], null);
    assert.deepEqual(got.find((r) => r.identifier === oaiId("r03"))!["dc:title"], ["Changed"]);

    // Nothing new: the run from T gets only what it holds, and hands on nothing.
    const third = await client(provider.url).harvest({ state });
    assert.equal(third.numRows(), 0);

    // One more record in the newest second (2024-05-08T00:00:00Z) is not lost either.
    records.push({ _id: "r13", datestamp: "2024-05-08T00:00:00Z", title: ["Same second again"] });
    await provider.restart(records);
    const fourth = await client(provider.url).harvest({ state });
    assert.deepEqual(fourth.array("identifier"), [oaiId("r13")]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("real provider: element text is kept as sent, spaces and line breaks included", async () => {
  const values = ["  leading", "trailing  ", " both & more ", "line\nbreak\n", "\ttab"];
  await using provider = await startProvider([
    { _id: "s1", datestamp: T, description: values, title: ["Plain"] },
  ]);
  const table = await client(provider.url).harvest();
  assert.deepEqual(table.get("dc:description", 0), values);
  assert.deepEqual(table.get("dc:title", 0), ["Plain"]);
  const record = await client(provider.url).getRecord(oaiId("s1"));
  assert.deepEqual(record.metadata["dc:description"], values);
});

Deno.test("real provider: raw keeps each record's XML as the provider sent it", async () => {
  const records: ProviderRecord[] = [
    ...night1(),
    { _id: "r10", datestamp: T, sets: ["maps:city"], deleted: true },
    { _id: "r11", datestamp: T, title: ['Ampersand & <angle> "quote"', "市街図  "] },
  ];
  await using provider = await startProvider(records, 4);
  for (const verb of ["ListRecords", "ListIdentifiers"] as const) {
    const table = await client(provider.url).harvest({ verb, raw: true });
    assert.equal(table.numRows(), records.length);
    assert.ok(table.columnNames().includes("raw"));
    // The provider's pages, fetched apart.
    const expected = await recordsAsSent(provider.url, verb);
    assert.equal(expected.size, records.length);
    for (const row of table.objects() as Record<string, unknown>[]) {
      assert.equal(row.raw, expected.get(row.identifier as string), `${verb} ${row.identifier}`);
    }
  }
  // GetRecord keeps it the same way.
  for (const id of ["r10", "r11"]) {
    const text = await (await fetch(
      `${provider.url}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${oaiId(id)}`,
    )).text();
    const root = /<OAI-PMH\b[^>]*>/.exec(text)![0];
    const declarations = (root.match(/\sxmlns(?::\w+)?="[^"]*"/g) ?? []).join("");
    const xml = /<record\b[\s\S]*?<\/record>/.exec(text)![0];
    const record = await client(provider.url).getRecord(oaiId(id), "oai_dc", { raw: true });
    assert.equal(record.raw, xml.replace("<record", `<record${declarations}`));
  }
  assert.equal((await client(provider.url).getRecord(oaiId("r11"))).raw, undefined);
  // Without raw there is no such column.
  assert.ok(!(await client(provider.url).harvest()).columnNames().includes("raw"));
});

Deno.test("real provider: an unknown set is badArgument, a window without records an empty table", async () => {
  await using provider = await startProvider(night1());
  await assert.rejects(
    () => client(provider.url).harvest({ set: "no-such-set" }),
    (error: Error & { code?: string }) => error.code === "badArgument",
  );
  const empty = await client(provider.url).harvest({ from: "2025-01-01" });
  assert.equal(empty.numRows(), 0);
});
