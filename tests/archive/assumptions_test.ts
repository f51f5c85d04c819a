/**
 * Where the archive spec says "not shown", the client must not depend on
 * one guess: the accounts catalogue in every plausible envelope, domains
 * exactly as the spec has them, no call to an unlisted endpoint after a
 * settings change, and upload statuses the client has never heard of.
 * Each test names its row in docs/ASSUMPTIONS.md.
 */

import assert from "node:assert/strict";
import { AuthError, TimeoutError } from "../../lib/errors/errors.ts";
import {
  type ArchiveSandbox,
  type ArchiveShapes,
  SANDBOX_ID_TOKENS,
  SANDBOX_KEYS,
  startArchiveSandbox,
} from "../../lib/sandbox/archive/mod.ts";
import { archiveOn } from "./_sandbox.ts";
import { encodePng } from "../../lib/sandbox/archive/_png.ts";

/** A small real PNG: the tiled pipeline converts only images. */
function tinyPng(): Promise<Uint8Array> {
  return encodePng(4, 3, "gray", (x, y) => x * 40 + y);
}

const WRITE = SANDBOX_KEYS.shinanoWrite;
const CATALOGUE_SHAPES: ArchiveShapes["accounts"][] = ["databases", "list", "accounts"];

async function withShapes(
  shapes: Partial<ArchiveShapes>,
  body: (sandbox: ArchiveSandbox) => Promise<void>,
  options: { conversionMs?: number } = {},
) {
  const sandbox = await startArchiveSandbox({ shapes, ...options });
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

for (const accounts of CATALOGUE_SHAPES) {
  Deno.test(`assumptions: accounts catalogue as ${accounts}: databases, createDatabase and updateSettings read it`, async () => {
    await withShapes({ accounts }, async (sandbox) => {
      const { archive } = archiveOn(sandbox, { apiKey: WRITE });
      const table = await archive.databases({ scope: "mine" });
      const letters = table.objects().find((r) =>
        (r as { account: string; slug: string }).account === "shinano" &&
        (r as { slug: string }).slug === "letters"
      ) as { service: string } | undefined;
      assert.equal(letters?.service, "dl");

      const db = await archive.createDatabase({ slug: "postcards", title: "Postcards" });
      assert.deepEqual([db.account, db.slug], ["shinano", "postcards"]);

      const { moved, database } = await archive.updateSettings({ service: "text" });
      assert.equal(database.settings.service, "text");
      assert.deepEqual(moved, {
        from: "/api/shinano/dl/letters",
        to: "/api/shinano/text/letters",
      });
    });
  });
}

Deno.test("assumptions: updateSettings calls no endpoint the spec does not list; later requests follow the move", async () => {
  await withShapes({}, async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    const known = sandbox.requests.length;
    await archive.updateSettings({ service: "records" });
    const sent = sandbox.requests.slice(known).map((r) => `${r.method} ${r.url.split("?")[0]}`);
    assert.deepEqual(sent, ["GET /api/accounts", "PATCH /shinano/letters/api/database"]);
    const rows = await archive.sparql("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
    assert.equal(rows.numRows(), 1);
    assert.match(sandbox.requests.at(-1)!.url, /^\/api\/shinano\/records\/letters\/sparql/);
  });
});

Deno.test("assumptions: addDomain posts {host} only, then {host, verify: true}, under the session", async () => {
  await withShapes({}, async (sandbox) => {
    const { archive } = archiveOn(sandbox, { session: SANDBOX_ID_TOKENS.shinano });
    const external = await archive.addDomain("letters.example.org");
    assert.equal(external.host, "letters.example.org");
    assert.equal(external.status, "pending");
    const txt = external.records.find((r) => r.type === "TXT");
    assert.ok(txt, "an external domain comes with its TXT record");
    sandbox.publishDns(txt.value);
    assert.equal((await archive.verifyDomain("letters.example.org")).status, "active");

    // An API key is not the identity-provider session: refused before sending.
    const { archive: keyed } = archiveOn(sandbox, { apiKey: WRITE });
    const before = sandbox.requests.length;
    await assert.rejects(
      () => keyed.addDomain("notes.tidepool-archive.app"),
      (e: Error) => e instanceof AuthError && /session/.test(e.message),
    );
    assert.equal(sandbox.requests.length, before, "nothing was sent with the API key");
  });
});

Deno.test("assumptions: upload statuses the client does not know keep it polling until ready", async () => {
  await withShapes(
    { pendingStatuses: ["transcoding", "tiling 3/7", "awaiting-worker"] },
    async (sandbox) => {
      const { archive } = archiveOn(sandbox, { apiKey: WRITE });
      const asset = await archive.upload(await tinyPng(), { derivative: "ptif", pollMs: 10 });
      assert.equal(asset.status, "ready");
      assert.match(asset.id, /^upl-/);
      const polls = sandbox.requests.filter((r) =>
        r.method === "GET" && /\/uploads\/upl-/.test(r.url)
      );
      assert.ok(polls.length >= 2, `polled ${polls.length} times`);
    },
    { conversionMs: 60 },
  );
});

Deno.test("assumptions: an upload that never becomes ready times out with its last status", async () => {
  await withShapes({ pendingStatuses: ["transcoding"] }, async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    await assert.rejects(
      async () =>
        await archive.upload(await tinyPng(), { derivative: "ptif", pollMs: 10, timeoutMs: 80 }),
      (e: Error) => e instanceof TimeoutError && /last status is transcoding/.test(e.message),
    );
  }, { conversionMs: 5_000 });
});

for (const keyAnswer of ["key", "api_key", "string"] as const) {
  Deno.test(`assumptions: an issued key answered as ${keyAnswer} is read and works`, async () => {
    await withShapes({ keyAnswer }, async (sandbox) => {
      const { archive } = archiveOn(sandbox);
      const issued = await archive.issueKey(SANDBOX_ID_TOKENS.shinano);
      assert.match(issued.key, /^tpk_\w+\.sk-\w+$/);
      assert.equal(issued.publicId, issued.key.split(".")[0]);
      const { archive: keyed } = archiveOn(sandbox, { apiKey: issued.key });
      assert.equal(
        (await keyed.createResource({ slug: `by-${keyAnswer}`, title: "k" })).slug,
        `by-${keyAnswer}`,
      );
    });
  });
}

Deno.test("assumptions: an upload issued as {asset_id, url} is put, finalized and polled", async () => {
  await withShapes({ uploadAnswer: "url" }, async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    const asset = await archive.upload(await tinyPng(), { derivative: "ptif", pollMs: 10 });
    assert.equal(asset.status, "ready");
    assert.match(asset.id, /^upl-/);
  }, { conversionMs: 30 });
});
