import assert from "node:assert/strict";
import { Archive, ConflictError, PayloadTooLargeError, QuotaError } from "../../lib/archive/mod.ts";
import { AuthError, NotFoundError } from "../../lib/errors/errors.ts";
import type { ProgressEvent } from "../../lib/progress/progress.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

Deno.test("archive: catalogue, search, facets, filters, paging, entities", async (t) => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const letters = sandbox.seed.databases.find((d) => d.slug === "letters")!;
    const visible = letters.resources.filter((r) => r.is_public);

    await t.step("databases: public catalogue, mine with a key, all for admins", async () => {
      const dbs = await archive.databases();
      assert.deepEqual(dbs.columnNames(), [
        "account",
        "slug",
        "title",
        "service",
        "provider",
        "rdf",
        "isPublic",
      ]);
      assert.deepEqual(
        (dbs.objects() as Record<string, unknown>[]).map((r) =>
          `${r.account}/${r.slug}:${r.service}`
        ).sort(),
        ["harbor/ledgers:text", "harbor/photos:records", "shinano/letters:dl"],
      );
      const keyed = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.shinanoRead }).archive;
      const mine = await keyed.databases({ scope: "mine" });
      assert.deepEqual(
        (mine.array("slug") as string[]).filter((s) => ["notes", "drafts"].includes(s)).sort(),
        ["drafts", "notes"],
      );
      await assert.rejects(keyed.databases({ scope: "all" }), AuthError);
      await assert.rejects(archive.databases({ scope: "mine" }), AuthError);
      const admin = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.admin }).archive;
      assert.equal((await admin.databases({ scope: "all" })).numRows(), 6);
    });

    await t.step(
      "search: hits table, facets ordered by count and summing to the total",
      async () => {
        const { hits, facets, total } = await archive.search({
          q: "Tokyo",
          facet: ["dcterms:type", "dcterms:subject"],
          pageSize: 25,
        });
        const expected = visible.filter((r) =>
          `${r.title} ${Object.values(r.metadata).flat().join(" ")}`.toLowerCase().includes("tokyo")
        );
        assert.equal(total, expected.length);
        assert.equal(hits.numRows(), 25);
        assert.deepEqual(hits.columnNames().slice(0, 6), [
          "id",
          "slug",
          "type",
          "title",
          "isPublic",
          "parent",
        ]);
        assert.ok(hits.columnNames().includes("dcterms:creator"));
        for (const subjects of hits.array("dcterms:subject") as unknown[]) {
          assert.ok(Array.isArray(subjects), "a multi-valued key is an array column");
        }
        const types = facets.get("dcterms:type")!;
        assert.deepEqual(types.columnNames(), ["value", "count"]);
        const counts = types.array("count") as number[];
        assert.deepEqual([...counts].sort((a, b) => b - a), counts);
        assert.equal(counts.reduce((a, b) => a + b, 0), total);
        const maps = expected.filter((r) => r.metadata["dcterms:type"] === "map").length;
        assert.equal(
          (types.objects() as Record<string, unknown>[]).find((r) => r.value === "map")?.count,
          maps,
        );
      },
    );

    await t.step("search: repeated filter values are OR, modern parameters only", async () => {
      const map = await archive.search({ filter: { "dcterms:type": "map" } });
      const book = await archive.search({ filter: { "dcterms:type": "book" } });
      const either = await archive.search({
        filter: { "dcterms:type": ["map", "book"] },
        pageSize: 200,
      });
      assert.ok(map.total > 0 && book.total > 0);
      assert.equal(either.total, map.total + book.total);
      for (const type of either.hits.array("dcterms:type") as string[]) {
        assert.ok(type === "map" || type === "book");
      }
      const urls = sandbox.requests.map((r) => r.url).filter((u) => u.includes("/search"));
      assert.ok(
        urls.some((u) =>
          u.includes("filter%5Bdcterms%3Atype%5D=map&filter%5Bdcterms%3Atype%5D=book")
        ),
      );
      assert.ok(urls.every((u) => !/[?&](limit|offset|dir)=/.test(u)));
      assert.ok(sandbox.requests.every((r) => !r.authorized || r.url.includes("scope=")));
    });

    await t.step("search: sort descending and page numbers", async () => {
      const page1 = await archive.search({ sort: "-dcterms:date", pageSize: 10, page: 1 });
      const page2 = await archive.search({ sort: "-dcterms:date", pageSize: 10, page: 2 });
      const dates = [...page1.hits.array("dcterms:date"), ...page2.hits.array("dcterms:date")]
        .map(String);
      assert.deepEqual([...dates].sort().reverse(), dates);
      assert.equal(new Set(page1.hits.array("id")).size + new Set(page2.hits.array("id")).size, 20);
    });

    await t.step("search: entity expansion searches every label and says which", async () => {
      const plain = await archive.search({ q: "Tokyo" });
      const expanded = await archive.search({ q: "Tokyo", expandEntities: true, pageSize: 100 });
      assert.deepEqual(plain.expanded, []);
      for (const label of ["Tokyo", "東京", "Edo", "江戸", "Tokio"]) {
        assert.ok(expanded.expanded.includes(label), label);
      }
      assert.ok(expanded.total > plain.total);
      const lower = expanded.expanded.map((l) => l.toLowerCase());
      for (const row of expanded.hits.objects() as Record<string, unknown>[]) {
        const text = `${row.title} ${JSON.stringify(row)}`.toLowerCase();
        assert.ok(lower.some((label) => text.includes(label)));
      }
    });

    await t.step("searchAll: every page, progress, one row per hit", async () => {
      const events: ProgressEvent[] = [];
      const all = archiveOn(sandbox, { progress: (e) => events.push(e) }).archive;
      const expected = (await archive.search({ filter: { "dcterms:type": "map" } })).total;
      const maps = await all.searchAll({ filter: { "dcterms:type": "map" }, pageSize: 40 });
      assert.equal(maps.numRows(), expected);
      assert.equal(new Set(maps.array("id")).size, expected);
      assert.equal(events.at(-1)?.state, "done");
      assert.equal(events.at(-1)?.done, expected);
    });

    await t.step(
      "resources: collections and children, all pages; one resource; an entity",
      async () => {
        const collections = await archive.resources({ type: "collection", pageSize: 20 });
        assert.equal(
          collections.numRows(),
          visible.filter((r) => r.type === "collection").length,
        );
        const slug = collections.array("slug")[0] as string;
        const children = await archive.resources({ parent: slug });
        assert.equal(children.numRows(), visible.filter((r) => r.parent === slug).length);
        assert.ok((children.array("parent") as string[]).every((p) => p === slug));
        const first = visible.find((r) => r.type === "item")!;
        const bySlug = await archive.resource(first.slug);
        const byId = await archive.resource(first.id);
        assert.deepEqual(bySlug, byId);
        assert.equal(bySlug.title, first.title);
        assert.deepEqual(bySlug.metadata, first.metadata);
        const tokyo = await archive.entity("tokyo");
        assert.equal(tokyo.entityType, "place");
        assert.equal(tokyo.prefLabel.ja, "東京");
        assert.ok(tokyo.altLabels.includes("Edo"));
        assert.ok(tokyo.sameAs.some((u) => u.includes("wikidata")));
        assert.ok(Math.abs(tokyo.coordinates!.lat - 35.69) < 0.01);
      },
    );
  });
});

Deno.test("archive: private data answers 404 without a key, reads with one, secret never leaks", async () => {
  await withSandbox(async (sandbox) => {
    const letters = sandbox.seed.databases.find((d) => d.slug === "letters")!;
    const hidden = letters.resources.find((r) => !r.is_public && r.type === "item")!;
    const anonymous = archiveOn(sandbox).archive;
    const error = await anonymous.resource(hidden.slug).catch((e) => e);
    assert.ok(error instanceof NotFoundError);
    assert.match(error.message, /may be private/);
    assert.match(error.message, /Resource not found/);
    const notes = new Archive(sandbox.url, { account: "shinano", db: "notes", progress: false });
    await assert.rejects(notes.search(), NotFoundError);

    const cacheDir = await Deno.makeTempDir();
    try {
      const { archive, warnings } = archiveOn(sandbox, {
        apiKey: SANDBOX_KEYS.shinanoRead,
        cache: { dir: cacheDir, mode: "record" },
      });
      const before = sandbox.requests.length;
      const found = await archive.resource(hidden.slug);
      assert.equal(found.isPublic, false);
      const sent = sandbox.requests.slice(before);
      assert.deepEqual(sent.map((r) => r.authorized), [false, true], "public first, key on 404");
      await archive.search({ q: "Tokyo" });
      assert.equal(sandbox.requests.at(-1)!.authorized, false, "public reads send no key");
      const privateDb = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.shinanoRead, db: "notes" });
      assert.ok((await privateDb.archive.search()).total > 0);
      const other = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.harborRead }).archive;
      await assert.rejects(other.resource(hidden.slug), NotFoundError);

      const secret = SANDBOX_KEYS.shinanoRead.split(".")[1];
      const revoked = archiveOn(sandbox, {
        apiKey: `tpk_shinano_r.${secret}-revoked`,
        auth: "always",
      });
      const refused = await revoked.archive.search().catch((e) => e);
      assert.ok(refused instanceof AuthError);
      const texts = [refused.message, String(refused.stack), JSON.stringify(refused), ...warnings];
      const files = readAll(cacheDir);
      assert.ok(files.length > 0, "the public reads were cached");
      texts.push(...files);
      for (const text of texts) assert.ok(!text.includes(secret), "the secret leaked");
    } finally {
      await Deno.remove(cacheDir, { recursive: true });
    }
  });
});

Deno.test("archive: 402, 409 and 413 become typed errors with the server's text", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    sandbox.faults.quotaExceeded = true;
    const quota = await archive.search().catch((e) => e);
    sandbox.faults.quotaExceeded = false;
    assert.ok(quota instanceof QuotaError);
    assert.equal(quota.serverMessage, "Monthly request quota exceeded for this account");
    for (const [status, type] of [[409, ConflictError], [413, PayloadTooLargeError]] as const) {
      const fake = new Archive("http://archive.invalid", {
        account: "a",
        db: "b",
        retry: false,
        progress: false,
        fetch: () =>
          Promise.resolve(
            new Response(JSON.stringify({ error: `said ${status}` }), {
              status,
              headers: { "content-type": "application/json" },
            }),
          ),
      });
      const error = await fake.resource("x").catch((e) => e);
      assert.ok(error instanceof type, `status ${status}`);
      assert.equal(error.serverMessage, `said ${status}`);
    }
  });
});

Deno.test("archive: a 307 after a service switch is followed, remembered and reported", async () => {
  await withSandbox(async (sandbox) => {
    const { archive, warnings } = archiveOn(sandbox);
    const query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }";
    const before = await archive.sparql(query);
    sandbox.switchService({ account: "shinano", db: "letters", service: "records" });
    const after = await archive.sparql(query);
    assert.deepEqual(after.objects(), before.objects());
    assert.deepEqual(archive.movedPaths, [{
      from: "/api/shinano/dl/letters",
      to: "/api/shinano/records/letters",
    }]);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /moved \/api\/shinano\/dl\/letters to \/api\/shinano\/records\/letters/,
    );
    const count = sandbox.requests.length;
    await archive.sparql(query);
    assert.equal(sandbox.requests.length, count + 1, "the new path is used directly");
    assert.match(sandbox.requests.at(-1)!.url, /^\/api\/shinano\/records\/letters\/sparql/);
  });
});

function readAll(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...readAll(path));
    else out.push(Deno.readTextFileSync(path));
  }
  return out;
}
