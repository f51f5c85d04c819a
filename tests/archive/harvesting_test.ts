/**
 * Harvesting the archive sandbox's own resources end to end, through
 * `new Archive(sandbox.url, {account, db})`: OAI-PMH and ResourceSync.
 */

import assert from "node:assert/strict";
import { archiveOn, withSandbox } from "./_sandbox.ts";
import type { OaiRecord } from "../../lib/archive/oai/types.ts";

Deno.test("harvesting: identify, sets, and a multi-page harvest equal to the public resources", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const identify = await archive.identify();
    assert.equal(identify.granularity, "YYYY-MM-DDThh:mm:ssZ");
    assert.match(identify.baseURL, /\/shinano\/letters\/api\/oai$/);
    const sets = await archive.listSets();
    assert.deepEqual(sets.array("setSpec").slice().sort(), ["collection", "item"]);

    const table = await archive.harvest({ metadataPrefix: "oai_dc" });
    const provider = sandbox.oaiProviders.get("shinano/letters")!;
    assert.ok((provider.hits.get("ListRecords") ?? 0) > 5, "the harvest spans several pages");
    const db = sandbox.seed.databases.find((d) => d.slug === "letters")!;
    const expected = new Map(db.resources.filter((r) => r.is_public).map((r) => [r.slug, r]));
    const withdrawn = new Set((db.withdrawn ?? []).map((w) => w.slug));
    assert.equal(withdrawn.size, 3, "the default seed has deleted records");
    assert.equal(table.numRows(), expected.size + withdrawn.size);
    const host = new URL(sandbox.url).hostname;
    for (const row of table.objects() as Record<string, unknown>[]) {
      const prefix = `oai:${host}:shinano/letters/`;
      const id = row.identifier as string;
      assert.ok(id.startsWith(prefix), id);
      if (row.deleted) {
        // A removed resource: its header only, as a persistent deletedRecord repository keeps it.
        assert.ok(withdrawn.delete(id.slice(prefix.length)), `${id} was removed`);
        assert.equal(row["dc:title"], null);
        continue;
      }
      const resource = expected.get(id.slice(prefix.length));
      assert.ok(resource, `harvested ${id} is a public resource`);
      expected.delete(resource.slug);
      assert.equal((row.datestamp as Date).getTime(), Date.parse(resource.updated));
      assert.deepEqual(row.setSpec, [resource.type]);
      assert.deepEqual(row["dc:title"], [resource.title]);
      const creator = resource.metadata["dcterms:creator"];
      assert.deepEqual(row["dc:creator"], [creator].flat().map(String));
      assert.deepEqual(row["dc:identifier"], [
        `${sandbox.url}/shinano/letters/data/${resource.slug}`,
      ]);
    }
    assert.equal(expected.size, 0, "every public resource was harvested once");
    assert.equal(withdrawn.size, 0, "every removed resource is a deleted record");
  });
});

Deno.test("harvesting: the streaming form gives the same records; jps carries the title", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { account: "harbor", db: "photos" });
    const table = await archive.harvest({ metadataPrefix: "jps", set: "item" });
    const streamed: OaiRecord[] = [];
    let pages = 0;
    for await (const page of archive.harvestRecords({ metadataPrefix: "jps", set: "item" })) {
      pages++;
      streamed.push(...page.records);
    }
    assert.ok(pages > 1);
    assert.deepEqual(streamed.map((r) => r.identifier), table.array("identifier"));
    const db = sandbox.seed.databases.find((d) => d.slug === "photos")!;
    const items = db.resources.filter((r) => r.is_public && r.type === "item");
    const removed = (db.withdrawn ?? []).filter((w) => w.type === "item");
    assert.equal(table.numRows(), items.length + removed.length);
    const titles = new Map(items.map((r) => [r.slug, r.title]));
    for (const row of table.objects() as Record<string, unknown>[]) {
      if (row.deleted) continue;
      const slug = (row.identifier as string).split("/").pop()!;
      assert.deepEqual(row["schema:name"], [titles.get(slug)]);
    }
  });
});

Deno.test("harvesting: fault switches on the sandbox (repeats, self-closing last token) lose nothing", async () => {
  await withSandbox(async (sandbox) => {
    sandbox.faults.oai.repeatAcrossPages = true;
    sandbox.faults.oai.selfClosingLastToken = true;
    const { archive } = archiveOn(sandbox, { account: "harbor", db: "photos" });
    const table = await archive.harvest({ verb: "ListIdentifiers", metadataPrefix: "oai_dc" });
    const db = sandbox.seed.databases.find((d) => d.slug === "photos")!;
    const removed = db.withdrawn?.length ?? 0;
    assert.equal(table.numRows(), db.resources.filter((r) => r.is_public).length + removed);
    assert.equal(new Set(table.array("identifier")).size, table.numRows());
  });
});

Deno.test("harvesting: an incremental harvest with state fetches only what changed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withSandbox(async (sandbox) => {
      const { archive } = archiveOn(sandbox);
      const state = `${dir}/letters.harvest.json`;
      const first = await archive.harvest({ metadataPrefix: "oai_dc", state });
      assert.ok(first.numRows() > 1000);
      const again = await archive.harvest({ metadataPrefix: "oai_dc", state });
      assert.equal(again.numRows(), 0, "nothing changed: noRecordsMatch is an empty table");

      const before = new Date(Date.now() - 1000);
      const slug = String(first.array("identifier")[10]).split("/").pop()!;
      sandbox.updateResource({ account: "shinano", db: "letters", slug }, {
        title: "Retitled letter 改題",
      });
      const changed = await archive.harvest({ metadataPrefix: "oai_dc", state });
      assert.equal(changed.numRows(), 1);
      assert.ok(String(changed.get("identifier", 0)).endsWith(`/${slug}`));
      assert.deepEqual(changed.get("dc:title", 0), ["Retitled letter 改題"]);

      const changes = await archive.changeList({ from: before });
      assert.deepEqual(changes.array("loc"), [`${sandbox.url}/shinano/letters/data/${slug}`]);
      assert.equal(changes.get("change", 0), "updated");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("harvesting: ResourceSync lists every public resource; private and timestamp-less sites 404", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { account: "harbor", db: "photos" });
    const discovery = await archive.resourceSync();
    assert.ok(
      JSON.stringify(discovery).includes("/harbor/photos/api/resourcesync/resourcelist.xml"),
    );
    const list = await archive.resourceList();
    const db = sandbox.seed.databases.find((d) => d.slug === "photos")!;
    const publicSlugs = db.resources.filter((r) => r.is_public).map((r) => r.slug).sort();
    const listed = (list.array("loc") as string[]).map((loc) => loc.split("/").pop()!).sort();
    assert.deepEqual(listed, publicSlugs);
    assert.ok(
      (list.array("html") as string[]).every((h) => h.includes("/harbor/photos/resource/")),
    );

    const cutoff = "2025-01-01T00:00:00Z";
    const changes = await archive.changeList({ from: cutoff });
    const recent = db.resources.filter((r) => r.is_public && r.updated >= cutoff);
    assert.equal(changes.numRows(), recent.length);

    const ledgers = await fetch(`${sandbox.url}/harbor/ledgers/api/resourcesync/resourcelist.xml`);
    assert.equal(ledgers.status, 404);
    assert.match((await ledgers.json()).error, /not offered/);
    const { archive: ledgerArchive } = archiveOn(sandbox, { account: "harbor", db: "ledgers" });
    await assert.rejects(() => ledgerArchive.resourceList(), /not offered/);

    for (const path of ["api/oai?verb=Identify", "api/resourcesync/capabilitylist.xml"]) {
      const response = await fetch(`${sandbox.url}/shinano/notes/${path}`);
      assert.equal(response.status, 404);
      await response.body?.cancel();
    }
    const { archive: notes } = archiveOn(sandbox, { db: "notes" });
    await assert.rejects(() => notes.identify(), /404/);
  });
});
