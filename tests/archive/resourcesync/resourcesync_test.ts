import assert from "node:assert/strict";
import { ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import { NotFoundError } from "../../../lib/errors/errors.ts";
import { columnTypes } from "../../../lib/table/build_table.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { seedOaiRecords } from "../../../lib/sandbox/archive/oai/mod.ts";
import { startResourceSyncSandbox } from "../../../lib/sandbox/archive/resourcesync/mod.ts";

const OPTIONS = { progress: false as const, site: "acme/letters" };
type Row = Record<string, unknown>;

Deno.test("discovery from the well-known URI to the capability list", async () => {
  const sandbox = startResourceSyncSandbox();
  try {
    const rs = new ResourceSync(sandbox.url, OPTIONS);
    const found = await rs.resourceSync();
    assert.equal(found.sourceDescription, `${sandbox.url}/.well-known/resourcesync`);
    assert.equal(
      found.capabilityList,
      `${sandbox.url}/acme/letters/api/resourcesync/capabilitylist.xml`,
    );
    assert.deepEqual(Object.keys(found.capabilities).sort(), ["changelist", "resourcelist"]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("the resource list is read page by page (p) in pages of 10,000", async () => {
  const records = seedOaiRecords({ count: 23_000, seed: 3, deletedShare: 0 });
  const sandbox = startResourceSyncSandbox({ sites: { "acme/letters": records } });
  try {
    const rs = new ResourceSync(sandbox.url, OPTIONS);
    const table = await rs.resourceList();
    assert.equal(table.numRows(), 23_000);
    assert.equal(new Set(table.array("loc") as string[]).size, 23_000);
    assert.equal(sandbox.requestCount, 2 + 3);
    const first = table.objects()[0] as Row;
    assert.equal(first.loc, `${sandbox.url}/acme/letters/data/${records[0].slug}`);
    assert.equal(first.html, `${sandbox.url}/acme/letters/resource/${records[0].slug}`);
    assert.equal((first.lastmod as Date).toISOString().replace(".000Z", "Z"), records[0].datestamp);
    assert.equal(first.type, "application/ld+json");
    assert.equal(columnTypes(table).lastmod, "date");
    const limited = await rs.resourceList({ pages: 1 });
    assert.equal(limited.numRows(), 10_000);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a resource list served as a sitemap index is followed", async () => {
  const records = seedOaiRecords({ count: 120, seed: 5 });
  const sandbox = startResourceSyncSandbox({
    sites: { "acme/letters": records },
    pageSize: 50,
    sitemapIndex: true,
  });
  try {
    const rs = new ResourceSync(sandbox.url, { ...OPTIONS, pageSize: 50 });
    const table = await rs.resourceList();
    const live = records.filter((r) => !r.deleted);
    assert.deepEqual(
      table.array("loc"),
      live.map((r) => `${sandbox.url}/acme/letters/data/${r.slug}`),
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("the change list with from gives only the changes", async () => {
  const sandbox = startResourceSyncSandbox();
  try {
    const records = sandbox.sites["acme/letters"];
    const live = records.filter((r) => !r.deleted);
    const cut = live.map((r) => r.datestamp).sort()[200];
    const rs = new ResourceSync(sandbox.url, OPTIONS);
    const changes = await rs.changeList({ from: cut });
    const want = live.filter((r) => r.datestamp >= cut);
    assert.equal(changes.numRows(), want.length);
    for (const row of changes.objects() as Row[]) {
      assert.ok(["created", "updated"].includes(row.change as string));
      assert.ok((row.datetime as Date).getTime() >= Date.parse(cut));
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("mirror: baseline, then increments, then a re-list that finds deletions", async () => {
  const sandbox = startResourceSyncSandbox();
  const dir = await Deno.makeTempDir();
  const state = `${dir}/mirror.json`;
  try {
    const rs = new ResourceSync(sandbox.url, OPTIONS);
    const records = sandbox.sites["acme/letters"];
    const baseline = await rs.mirror({ state });
    assert.equal(baseline.kind, "baseline");
    assert.equal(baseline.deletionsReported, false);
    assert.match(baseline.note, /does not report deletions/);
    assert.equal(baseline.table.numRows(), records.filter((r) => !r.deleted).length);
    const live = records.find((r) => !r.deleted)!;
    live.datestamp = "2035-01-01T00:00:00Z";
    records.push({ ...live, identifier: "x", slug: "new-one", datestamp: "2035-02-01T00:00:00Z" });
    const changes = await rs.mirror({ state });
    assert.equal(changes.kind, "changes");
    assert.deepEqual(
      (changes.table.array("loc") as string[]).map((l) => l.split("/").at(-1)),
      [live.slug, "new-one"],
    );
    const nothing = await rs.mirror({ state });
    assert.equal(nothing.table.numRows(), 0);
    const gone = records.splice(records.findIndex((r) => !r.deleted && r.slug !== live.slug), 1)[0];
    const relist = await rs.mirror({ state, relistAfterDays: 0 });
    assert.equal(relist.kind, "relist");
    assert.deepEqual(relist.removed, [`${sandbox.url}/acme/letters/data/${gone.slug}`]);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a site without ResourceSync (404) gets a clear error", async () => {
  const sandbox = startResourceSyncSandbox();
  try {
    const rs = new ResourceSync(sandbox.url, {
      progress: false,
      capabilityList: "/acme/search/api/resourcesync/capabilitylist.xml",
    });
    const error = await rs.resourceList().then(() => undefined, (e) => e);
    assert.ok(error instanceof NotFoundError);
    assert.match(error.message, /ResourceSync is not offered for this site/);
    assert.match(error.hint ?? "", /external search engine/);
    const unknown = new ResourceSync(sandbox.url, { progress: false, site: "acme/search" });
    await assert.rejects(() => unknown.resourceSync(), /not offered for acme\/search/);
  } finally {
    await sandbox.close();
  }
});

Deno.test("links to another host are refused unless allowed", async () => {
  const server = serveLocal((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/cap.xml") {
      return new Response(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="capabilitylist"/><url><loc>http://elsewhere.example/rl.xml</loc><rs:md capability="resourcelist"/></url></urlset>`,
      );
    }
    return new Response("", { status: 404 });
  });
  try {
    const rs = new ResourceSync(server.url, { progress: false, capabilityList: "/cap.xml" });
    await assert.rejects(() => rs.resourceList(), /another host/);
  } finally {
    await server.close();
  }
});

Deno.test("mirror: a list of locations tidepool did not write is refused, every byte kept", async () => {
  const sandbox = startResourceSyncSandbox();
  const dir = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(sandbox.url, OPTIONS);
    await Deno.writeTextFile(`${dir}/mirror.json.locs.txt`, "my own notes\n");
    await assert.rejects(
      rs.mirror({ state: `${dir}/mirror.json` }),
      /Cannot start a mirror: .*mirror\.json\.locs\.txt exists, and tidepool did not write it/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/mirror.json.locs.txt`), "my own notes\n");
    await Deno.writeTextFile(`${dir}/theirs.json`, '{"name":"not a mirror"}');
    await assert.rejects(
      rs.mirror({ state: `${dir}/theirs.json` }),
      /Cannot read the mirror state file/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/theirs.json`), '{"name":"not a mirror"}');
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
