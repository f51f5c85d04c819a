/**
 * The write side end to end: keys and scopes, resources, databases,
 * settings with a service switch, entities, usage, domains, CSV import
 * round-trip, an image upload through the pipeline, visibility, error
 * statuses, persistence across a restart, and no secret leaking.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { Archive } from "../../lib/archive/mod.ts";
import { AuthError, NotFoundError, TidepoolError } from "../../lib/errors/errors.ts";
import {
  SANDBOX_ID_TOKENS,
  SANDBOX_KEYS,
  startArchiveSandbox,
} from "../../lib/sandbox/archive/mod.ts";
import { encodePng } from "../../lib/sandbox/archive/_png.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const WRITE = SANDBOX_KEYS.shinanoWrite;
const SECRET = WRITE.split(".")[1];

/** An RGB PNG (the sandbox's size reader is checked on a colour type it does not serve itself). */
function makePng(width: number, height: number): Promise<Uint8Array> {
  return encodePng(width, height, "rgb", (x, y, channel) => [x % 256, y % 256, 128][channel]);
}

Deno.test("writes: resources are created, updated and deleted; each error status is specific", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    const created = await archive.createResource({
      slug: "letter-new-1",
      title: "新しい書簡",
      metadata: { "dcterms:creator": "森鷗外" },
    });
    assert.equal(created.slug, "letter-new-1");
    assert.equal((await archive.resource("letter-new-1")).title, "新しい書簡");
    const updated = await archive.updateResource("letter-new-1", {
      metadata: { "dcterms:date": "1890" },
    });
    assert.equal(
      updated.metadata["dcterms:creator"],
      "森鷗外",
      "a partial update keeps other keys",
    );
    assert.equal(updated.metadata["dcterms:date"], "1890");

    await assert.rejects(
      () => archive.createResource({ slug: "letter-new-1", title: "again" }),
      (e: Error) => e.name === "ConflictError" && /letter-new-1/.test(e.message),
    );
    const { archive: readOnly } = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.shinanoRead });
    await assert.rejects(
      () => readOnly.createResource({ slug: "x-1", title: "x" }),
      (e: Error) => e instanceof AuthError && /write scope/.test(e.message),
    );
    const { archive: noKey } = archiveOn(sandbox);
    await assert.rejects(() => noKey.deleteResource("letter-new-1"), /API key is needed/);
    const { archive: other } = archiveOn(sandbox, {
      account: "harbor",
      db: "photos",
      apiKey: WRITE,
    });
    await assert.rejects(
      () => other.createResource({ slug: "x-2", title: "x" }),
      (e: Error) => e instanceof AuthError && e.status === 403 && /harbor/.test(e.message),
    );
    const { archive: badKey } = archiveOn(sandbox, { apiKey: "tpk_shinano_w.sk-wrong" });
    await assert.rejects(
      () => badKey.createResource({ slug: "x-3", title: "x" }),
      (e: Error) => e instanceof AuthError && e.status === 401,
    );
    sandbox.faults.quotaExceeded = true;
    await assert.rejects(
      () => archive.createResource({ slug: "x-4", title: "x" }),
      (e: Error) => e.name === "QuotaError" && /Quota/.test(e.message),
    );
    sandbox.faults.quotaExceeded = false;

    await archive.deleteResource("letter-new-1");
    await assert.rejects(() => archive.resource("letter-new-1"), NotFoundError);
    const posts = sandbox.requests.filter((r) =>
      r.method === "POST" && r.url.endsWith("/resources")
    );
    assert.equal(posts.length, 6, "no write was retried");
  });
});

Deno.test("writes: a create whose answer is lost is read back, not duplicated", async () => {
  await withSandbox(async (sandbox) => {
    let dropped = false;
    const { archive, warnings } = archiveOn(sandbox, {
      apiKey: WRITE,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!dropped && init?.method === "POST") {
          dropped = true;
          await response.body?.cancel();
          throw new TypeError("connection reset");
        }
        return response;
      },
    });
    const resource = await archive.createResource({ slug: "lost-answer", title: "Lost" });
    assert.equal(resource.slug, "lost-answer");
    assert.ok(warnings.some((w) => /lost/.test(w)));
    const posts = sandbox.requests.filter((r) => r.method === "POST");
    assert.equal(posts.length, 1, "the create was not resent");
  });
});

Deno.test("writes: databases, settings with a service switch (307), entities, usage, keys, domains", async () => {
  await withSandbox(async (sandbox) => {
    const { archive, warnings } = archiveOn(sandbox, { apiKey: WRITE });
    const db = await archive.createDatabase({ slug: "postcards", title: "Postcards" });
    assert.equal(db.slug, "postcards");
    await assert.rejects(
      () => archive.createDatabase({ slug: "postcards", title: "again" }),
      /postcards exists already/,
    );
    const { moved, database } = await archive.updateSettings({ service: "text" });
    assert.equal(database.settings.service, "text");
    assert.deepEqual(moved, { from: "/api/shinano/dl/letters", to: "/api/shinano/text/letters" });
    assert.ok(warnings.some((w) => /307/.test(w)));

    const entity = await archive.createEntity({
      slug: "otaru-port",
      entityType: "place",
      prefLabel: { en: "Otaru", ja: "小樽" },
      altLabels: ["Otaru-ko"],
    });
    assert.deepEqual((await archive.entity("otaru-port")).prefLabel, entity.prefLabel);
    const use = await archive.usage();
    assert.equal(use.databases, 4);

    const { archive: anon } = archiveOn(sandbox, { session: SANDBOX_ID_TOKENS.shinano });
    const issued = await anon.issueKey(SANDBOX_ID_TOKENS.shinano, { scopes: ["read", "write"] });
    const { archive: fresh } = archiveOn(sandbox, { apiKey: issued.key });
    assert.equal(
      (await fresh.createResource({ slug: "by-new-key", title: "k" })).slug,
      "by-new-key",
    );

    const sub = await anon.addDomain("letters.tidepool-archive.app");
    assert.equal(sub.status, "active");
    const external = await anon.addDomain("letters.example.org");
    assert.equal(external.status, "pending");
    assert.deepEqual(external.records.map((r) => r.type), ["CNAME", "TXT"]);
    assert.equal((await anon.verifyDomain("letters.example.org")).status, "pending");
    sandbox.publishDns(external.records[1].value);
    assert.equal((await anon.verifyDomain("letters.example.org")).status, "active");
    assert.equal((await anon.domains()).length, 2);
  });
});

Deno.test("writes: CSV import round-trip with Japanese, commas, quotes and newlines; local refusals", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE, db: "notes" });
    const table = aq.table({
      slug: ["csv-1", "csv-2", "csv-3"],
      title: ["書簡、東京より", 'He said "yes", then left', "Two\nlines, and\r\nmore"],
      "dcterms:creator": ["夏目漱石", "Lafcadio Hearn, Koizumi Yakumo", " leading space"],
      "備考": ["虫損あり", "", "改行\nあり"],
    });
    const result = await archive.importCsv(table);
    assert.deepEqual([result.created, result.updated, result.errors.length], [3, 0, 0]);
    const back = (await archive.resources()).filter(
      aq.escape((d: { slug: string }) => d.slug.startsWith("csv-")),
    ).orderby("slug");
    assert.deepEqual(back.array("title"), table.array("title"));
    // The column is an array column, since some seeded creators are lists.
    const asList = (v: unknown) => Array.isArray(v) ? v : [v];
    assert.deepEqual(
      Array.from(back.array("dcterms:creator"), asList),
      Array.from(table.array("dcterms:creator"), asList),
    );
    assert.deepEqual(back.array("備考"), ["虫損あり", null, "改行\nあり"]);

    const again = await archive.importCsv(table.derive({ title: () => "改題" }));
    assert.deepEqual([again.created, again.updated], [0, 3]);

    await assert.rejects(
      () => archive.importCsv(aq.table({ title: ["x"] })),
      (e: Error) => e instanceof TidepoolError && /no slug column/.test(e.message),
    );
    await assert.rejects(
      () =>
        archive.importCsv(aq.table({ slug: ["a", "b", "a", "c", "b"], title: [1, 2, 3, 4, 5] })),
      /duplicate slugs: a \(rows 1, 3\); b \(rows 2, 5\)/,
    );
  });
});

Deno.test("writes: a real PNG goes through the pipeline with its true size; visibility via iiifInfo; 413", async () => {
  const sandbox = await startArchiveSandbox({ conversionMs: 50, maxUploadBytes: 200_000 });
  const dir = await Deno.makeTempDir();
  try {
    const png = await makePng(97, 61);
    const path = `${dir}/scan.png`;
    await Deno.writeFile(path, png);
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    const asset = await archive.upload(path, { derivative: "ptif", isPublic: false, pollMs: 20 });
    assert.equal(asset.status, "ready");
    assert.deepEqual([asset.width, asset.height], [97, 61]);
    assert.equal(asset.isPublic, false);
    assert.match(asset.iiif ?? "", new RegExp(`/api/shinano/iiif-img/3/${asset.id}$`));

    const { archive: anon } = archiveOn(sandbox);
    await assert.rejects(() => anon.iiifInfo(asset.id), NotFoundError);
    await archive.setAssetPublic(asset, true);
    const info = await anon.iiifInfo(asset.id);
    assert.deepEqual([info.width, info.height], [97, 61]);
    const bare = await fetch(asset.iiif!, { redirect: "manual" });
    assert.equal(bare.status, 303);
    assert.match(bare.headers.get("location") ?? "", /info\.json$/);

    await assert.rejects(
      () => archive.upload(new Uint8Array(300_000), { pollMs: 20 }),
      (e: Error) => e.name === "PayloadTooLargeError" && /300000 bytes/.test(e.message),
    );
    await assert.rejects(
      () => archive.upload(new TextEncoder().encode("not an image"), { pollMs: 20 }),
      /failed in conversion[\s\S]*Not a PNG or JPEG/,
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writes: survive a restart with a data directory; no key secret in errors, logs or files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const logs: string[] = [];
    let sandbox = await startArchiveSandbox({ dataDir: dir });
    try {
      const { archive, warnings } = archiveOn(sandbox, {
        apiKey: WRITE,
        cache: { dir: `${dir}/cache`, mode: "record" },
      });
      await archive.createResource({ slug: "kept-1", title: "残る" });
      await archive.resource("kept-1");
      await archive.search({ q: "Tokyo" });
      try {
        await archive.createResource({ slug: "kept-1", title: "dup" });
      } catch (error) {
        logs.push(String(error), JSON.stringify(error), (error as Error).stack ?? "");
      }
      logs.push(...warnings);
    } finally {
      await sandbox.close();
    }
    sandbox = await startArchiveSandbox({ dataDir: dir });
    try {
      const { archive } = archiveOn(sandbox);
      assert.equal((await archive.resource("kept-1")).title, "残る");
    } finally {
      await sandbox.close();
    }
    assert.throws(
      () => new Archive("http://127.0.0.1:1", { apiKey: `nodot${SECRET}` }),
      (e: Error) => !e.message.includes(SECRET) && /Invalid API key/.test(e.message),
    );
    const texts = [...logs];
    const walk = async (path: string) => {
      for await (const entry of Deno.readDir(path)) {
        const full = `${path}/${entry.name}`;
        if (entry.isDirectory) await walk(full);
        else texts.push(new TextDecoder().decode(await Deno.readFile(full)));
      }
    };
    await walk(dir);
    assert.ok(texts.length > 2);
    for (const text of texts) assert.ok(!text.includes(SECRET), "a key secret leaked");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("uploads: wait: false hands the asset back at once; uploadStatus looks, waitForUpload waits, both abortable", async () => {
  // Conversions end when the test says so, not after a time a loaded machine could pass.
  const sandbox = await startArchiveSandbox({ conversionMs: Infinity });
  try {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    const started = await archive.upload(await makePng(40, 30), {
      contentType: "image/png",
      wait: false,
    });
    assert.notEqual(started.status, "ready", "not ready before its conversion ends");
    assert.equal((await archive.uploadStatus(started.id)).id, started.id);

    const aborted = new AbortController();
    const waiting = archive.waitForUpload(started, { pollMs: 20, signal: aborted.signal });
    aborted.abort();
    await assert.rejects(
      waiting,
      (e: Error) => e.name === "AbortError" || /abort/i.test(e.message),
    );

    await assert.rejects(
      archive.waitForUpload(started, { pollMs: 20, timeoutMs: 30 }),
      (e: Error) => e instanceof TidepoolError && /last status is/.test(e.message),
    );
    const converted = archive.waitForUpload(started, { pollMs: 20 });
    assert.equal(await sandbox.finishConversions(), 1);
    const ready = await converted;
    assert.equal(ready.status, "ready");
    assert.deepEqual([ready.width, ready.height], [40, 30]);
    assert.equal((await archive.uploadStatus(ready)).status, "ready");
    await assert.rejects(archive.uploadStatus("no-such-asset"), NotFoundError);
    await assert.rejects(archive.uploadStatus(""), /no asset id/);
  } finally {
    await sandbox.close();
  }
});
