import assert from "node:assert/strict";
import { parseSitemap } from "../../../lib/archive/resourcesync/_sitemap.ts";
import { entrySchema } from "../../../lib/archive/resourcesync/_schema.ts";
import { ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import { buildTable } from "../../../lib/table/build_table.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";

const DIR = new URL("../../fixtures/resourcesync/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, DIR));
const example = (n: number) => {
  const name = `examples_from_spec_v1_1/resourcesync_ex_${n}.xml`;
  return parseSitemap(read(name), name, name);
};
type Row = Record<string, unknown>;

Deno.test("every example document of the specification parses with its capability", async () => {
  const numbers = [...Deno.readDirSync(new URL("examples_from_spec_v1_1/", DIR))]
    .map((e) => Number(/_(\d+)\.xml$/.exec(e.name)![1]));
  assert.equal(numbers.length, 30);
  const capabilities = new Set<string>();
  for (const n of numbers) {
    const doc = await example(n);
    assert.ok(doc.capability, `example ${n} has a capability`);
    assert.ok(doc.entries.length > 0, `example ${n} has entries`);
    for (const entry of doc.entries) assert.match(entry.loc, /^(https?|gsiftp):\/\//);
    capabilities.add(doc.capability!);
  }
  assert.deepEqual([...capabilities].sort(), [
    "capabilitylist",
    "changedump",
    "changedump-manifest",
    "changelist",
    "description",
    "resourcedump",
    "resourcedump-manifest",
    "resourcelist",
  ]);
});

Deno.test("resource list rows: lastmod, hash, length, type (example 14)", async () => {
  const doc = await example(14);
  assert.equal(doc.kind, "urlset");
  assert.equal(doc.at, "2013-01-03T09:00:00Z");
  assert.equal(doc.links.up, "http://example.com/dataset1/capabilitylist.xml");
  const rows = buildTable(entrySchema, doc.entries).objects() as Row[];
  assert.deepEqual(rows.map((r) => ({ ...r, lastmod: (r.lastmod as Date).toISOString() })), [
    {
      loc: "http://example.com/res1",
      lastmod: "2013-01-02T13:00:00.000Z",
      change: null,
      html: null,
      length: 8876,
      type: "text/html",
      hash: "md5:1584abdf8ebdc9802ac0c6a7402c03b6",
      datetime: null,
    },
    {
      loc: "http://example.com/res2",
      lastmod: "2013-01-02T14:00:00.000Z",
      change: null,
      html: null,
      length: 14599,
      type: "application/pdf",
      hash:
        "md5:1e0d5cb8ef6ba40c99b14c0237be735e sha-256:854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784",
      datetime: null,
    },
  ]);
});

Deno.test("change list rows, alternates, indexes and capability lists", async () => {
  const changes = buildTable(entrySchema, (await example(19)).entries).objects() as Row[];
  assert.deepEqual(changes.map((r) => [r.loc, r.change]), [
    ["http://example.com/res1.html", "created"],
    ["http://example.com/res2.pdf", "updated"],
    ["http://example.com/res3.tiff", "deleted"],
    ["http://example.com/res2.pdf", "updated"],
  ]);
  assert.equal((changes[0].datetime as Date).toISOString(), "2013-01-03T11:00:00.000Z");
  assert.equal(changes[3].datetime, null);
  const alternates = (await example(25)).entries[0];
  assert.equal(alternates.html, "http://example.com/res1.html");
  const index = await example(15);
  assert.equal(index.kind, "sitemapindex");
  assert.deepEqual(index.entries.map((e) => e.loc), [
    "http://example.com/resourcelist1.xml",
    "http://example.com/resourcelist2.xml",
    "http://example.com/resourcelist3.xml",
  ]);
  const changeIndex = await example(20);
  assert.deepEqual(changeIndex.entries.map((e) => [e.from, e.until]), [
    ["2013-01-01T00:00:00Z", "2013-01-02T00:00:00Z"],
    ["2013-01-02T00:00:00Z", "2013-01-03T00:00:00Z"],
    ["2013-01-03T00:00:00Z", null],
  ]);
  const capabilityList = await example(13);
  assert.deepEqual(
    capabilityList.entries.map((e) => e.capability),
    ["resourcelist", "resourcedump", "changelist", "changedump"],
  );
  const description = await example(12);
  assert.equal(description.capability, "description");
  assert.equal(description.entries.length, 3);
  assert.equal((await example(27)).entries[1].length, 9788456778);
});

Deno.test("the sitemap index fixture: every sitemap followed, within its authority", async () => {
  const files = ["sitemap.xml", "sitemap00000.xml", "sitemap00001.xml", "sitemap00002.xml"];
  let rewrite = "";
  const server = serveLocal((request) => {
    const name = new URL(request.url).pathname.slice(1);
    if (name === "cap.xml") {
      return new Response(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="capabilitylist"/><url><loc>/sitemap.xml</loc><rs:md capability="resourcelist"/></url></urlset>`,
      );
    }
    if (!files.includes(name)) return new Response("", { status: 404 });
    const text = read(`sitemapindex1/${name}`);
    return new Response(rewrite ? text.replaceAll("http://localhost:8888", rewrite) : text);
  });
  try {
    const rs = new ResourceSync(server.url, { progress: false, capabilityList: "/cap.xml" });
    // As published, the index names another authority (localhost:8888): refused.
    await assert.rejects(() => rs.resourceList(), /another host/);
    rewrite = server.url;
    const table = await rs.resourceList();
    assert.equal(table.numRows(), 17);
    const rows = table.objects() as Row[];
    assert.equal(rows[0].loc, `${server.url}/resources/1`);
    assert.equal(rows[0].length, 794);
    assert.equal((rows[0].lastmod as Date).toISOString(), "2012-06-13T17:13:47.000Z");
    // A lastmod without a zone is read as UTC, not local time.
    assert.equal((rows.at(-1)!.lastmod as Date).toISOString(), "2012-06-13T17:13:47.000Z");
  } finally {
    await server.close();
  }
});
