/**
 * The archive calls the spec lists that had no call or no test: the graph
 * rebuild (rdf-index), removing a custom domain, the data URI read by
 * content negotiation, search paging by `page[offset]`/`page[limit]`,
 * `scope=mine` with an identity-provider session, and an upload without a
 * derivative (no conversion to wait for). Each outcome is checked against
 * the sandbox's own state or request log, not only tidepool's report.
 */

import assert from "node:assert/strict";
import { Archive } from "../../lib/archive/mod.ts";
import { AuthError, NotFoundError, ProtocolError, TidepoolError } from "../../lib/errors/errors.ts";
import {
  SANDBOX_ID_TOKENS,
  SANDBOX_KEYS,
  startArchiveSandbox,
} from "../../lib/sandbox/archive/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const WRITE = SANDBOX_KEYS.shinanoWrite;

Deno.test("rebuildGraph: a resource written since the build reaches SPARQL only after it", async () => {
  for (const rdfIndexAnswer of ["status", "empty", "none"] as const) {
    const sandbox = await startArchiveSandbox({ shapes: { rdfIndexAnswer } });
    try {
      const { archive } = archiveOn(sandbox, { apiKey: WRITE });
      const title = `Rebuilt graph ${rdfIndexAnswer}`;
      await archive.createResource({ slug: `graph-${rdfIndexAnswer}`, title, isPublic: true });
      // Titles carry a language tag in the graph: compared by their text.
      const ask = `ASK { ?s <http://schema.org/name> ?n FILTER(STR(?n) = "${title}") }`;
      assert.equal(await archive.sparql<boolean>(ask), false, "not in the graph yet");
      const answer = await archive.rebuildGraph();
      assert.equal(typeof answer, "object");
      assert.equal(await archive.sparql<boolean>(ask), true, "in the graph after the rebuild");
      const sent = sandbox.requests.filter((r) => r.url.endsWith("/rdf-index"));
      assert.deepEqual(sent.map((r) => [r.method, r.url, r.authorized]), [
        ["POST", "/api/shinano/dl/letters/rdf-index", true],
      ]);
    } finally {
      await sandbox.close();
    }
  }
});

Deno.test("rebuildGraph: refused without a key before sending, and for a read-only key by the platform", async () => {
  await withSandbox(async (sandbox) => {
    const before = sandbox.requests.length;
    await assert.rejects(() => archiveOn(sandbox).archive.rebuildGraph(), AuthError);
    assert.equal(
      sandbox.requests.slice(before).filter((r) => r.url.endsWith("/rdf-index")).length,
      0,
    );
    const reader = archiveOn(sandbox, { apiKey: SANDBOX_KEYS.shinanoRead }).archive;
    await assert.rejects(() => reader.rebuildGraph(), (error: unknown) => {
      assert.ok(error instanceof AuthError);
      assert.equal(error.status, 403);
      assert.ok(!error.message.includes(SANDBOX_KEYS.shinanoRead.split(".")[1]));
      return true;
    });
    await assert.rejects(
      () => reader.rebuildGraph({ signal: "no" as unknown as AbortSignal }),
      /signal/,
    );
  });
});

Deno.test("removeDomain: the domain leaves the platform's list; an unknown one is NotFoundError", async () => {
  for (const domainDeleteAnswer of ["none", "domain"] as const) {
    const sandbox = await startArchiveSandbox({ shapes: { domainDeleteAnswer } });
    try {
      const session = SANDBOX_ID_TOKENS.shinano;
      const { archive } = archiveOn(sandbox, { session });
      await archive.addDomain("letters.example.org");
      await archive.addDomain("letters.tidepool-archive.app");
      await archive.removeDomain("letters.example.org");
      assert.deepEqual(
        (sandbox.seed.domains ?? []).map((d) => d.host),
        ["letters.tidepool-archive.app"],
        "the sandbox's own list",
      );
      assert.deepEqual((await archive.domains()).map((d) => d.host), [
        "letters.tidepool-archive.app",
      ]);
      await assert.rejects(() => archive.removeDomain("letters.example.org"), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.ok(!Deno.inspect(error).includes(session), "the session never shows");
        return true;
      });
      const noSession = archiveOn(sandbox, { apiKey: WRITE }).archive;
      const before = sandbox.requests.length;
      await assert.rejects(() => noSession.removeDomain("x.example.org"), /session/);
      await assert.rejects(() => archive.removeDomain(" "), /no host name/);
      assert.equal(sandbox.requests.length, before, "nothing sent");
    } finally {
      await sandbox.close();
    }
  }
});

Deno.test("scope=mine with an identity-provider session lists the account's private databases", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { session: SANDBOX_ID_TOKENS.shinano });
    const mine = await archive.databases({ scope: "mine" });
    const expected = sandbox.seed.databases
      .filter((d) => d.is_public || d.account === "shinano")
      .map((d) => `${d.account}/${d.slug}`)
      .sort();
    assert.deepEqual(
      (mine.objects() as { account: string; slug: string }[]).map((r) => `${r.account}/${r.slug}`)
        .sort(),
      expected,
    );
    const sent = sandbox.requests.at(-1)!;
    assert.deepEqual([sent.url, sent.authorized], ["/api/accounts?scope=mine", true]);
    // Anonymous: refused before anything is sent.
    const before = sandbox.requests.length;
    await assert.rejects(() => archiveOn(sandbox).archive.databases({ scope: "mine" }), AuthError);
    assert.equal(sandbox.requests.length, before);
  });
});

Deno.test("search by page[offset]/page[limit]: one page, and every page as one table", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const byNumber = await archive.searchAll({ q: "Tokyo", pageSize: 40 });
    const byOffset = await archive.searchAll({ q: "Tokyo", pageSize: 40, paging: "offset" });
    assert.ok(byNumber.numRows() > 80, "several pages");
    assert.deepEqual(byOffset.array("slug"), byNumber.array("slug"));
    const offsets = sandbox.requests
      .filter((r) => r.url.includes("page%5Boffset%5D") || r.url.includes("page[offset]"))
      .map((r) => new URL(r.url, "http://x").searchParams.get("page[offset]"));
    assert.deepEqual(
      offsets,
      Array.from({ length: Math.ceil(byNumber.numRows() / 40) }, (_, i) => String(i * 40)),
    );

    const { hits, total } = await archive.search({ q: "Tokyo", offset: 45, limit: 7 });
    assert.equal(total, byNumber.numRows());
    assert.deepEqual(hits.array("slug"), (byNumber.array("slug") as string[]).slice(45, 52));
    const pages: number[] = [];
    for await (const page of archive.searchPages({ q: "Tokyo", pageSize: 50, paging: "offset" })) {
      pages.push(page.numRows());
    }
    assert.equal(pages.reduce((a, b) => a + b, 0), byNumber.numRows());

    const before = sandbox.requests.length;
    await assert.rejects(() => archive.search({ page: 2, offset: 10 }), /not both/);
    await assert.rejects(() => archive.search({ offset: -1 }), /Invalid offset/);
    await assert.rejects(
      () => archive.searchAll({ paging: "cursor" as "offset" }),
      TidepoolError,
    );
    assert.equal(sandbox.requests.length, before, "refused before sending");
  });
});

Deno.test("the data URI answers JSON-LD or Turtle by content negotiation; other URIs are not followed", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const letter = sandbox.seed.databases.find((d) => d.slug === "letters")!.resources
      .find((r) => r.is_public)!;
    const uri = archive.dataUri(letter.slug);
    assert.equal(uri, `${sandbox.url}/shinano/letters/data/${letter.slug}`);
    const doc = await archive.linkedDataAt(uri);
    assert.equal(JSON.stringify(doc).includes(letter.title), true);
    const turtle = await archive.linkedDataAt(letter.slug, { format: "ttl" });
    assert.ok(turtle.includes(letter.title));
    const sent = sandbox.requests.filter((r) => r.url.includes("/data/"));
    assert.deepEqual(sent.map((r) => r.url), [
      `/shinano/letters/data/${letter.slug}`,
      `/shinano/letters/data/${letter.slug}`,
    ]);
    const before = sandbox.requests.length;
    for (
      const other of [
        "https://archive.example/shinano/letters/data/x",
        `${sandbox.url}/api/accounts`,
      ]
    ) {
      await assert.rejects(() => archive.linkedDataAt(other), /Not a data URI of this platform/);
    }
    assert.equal(sandbox.requests.length, before, "nothing sent");
  });
});

Deno.test("a data URI that answers a web page (a 303 to the detail page) is a ProtocolError", async () => {
  const archive = new Archive("http://127.0.0.1:9", {
    account: "shinano",
    db: "letters",
    progress: false,
    retry: false,
    fetch: () =>
      Promise.resolve(
        new Response("<!doctype html><title>Letter</title>", {
          headers: { "content-type": "text/html; charset=utf-8" },
        }),
      ),
  });
  await assert.rejects(() => archive.linkedDataAt("letter-0001"), ProtocolError);
  await assert.rejects(() => archive.linkedDataAt("letter-0001", { format: "ttl" }), ProtocolError);
});

Deno.test("an upload without a derivative ends when stored: no finalize, no wait", async () => {
  for (const untiledStatus of ["stored", "ready", "uploaded"]) {
    // Conversion would take an hour: an upload that waited for it would time out.
    const sandbox = await startArchiveSandbox({
      shapes: { untiledStatus },
      conversionMs: 3_600_000,
    });
    try {
      const { archive } = archiveOn(sandbox, { apiKey: WRITE });
      const bytes = new TextEncoder().encode("a,b\n1,2\n");
      const asset = await archive.upload(bytes, {
        derivative: null,
        contentType: "text/csv",
        timeoutMs: 60_000,
      });
      assert.equal(asset.status, untiledStatus, "the status as the platform reports it");
      assert.equal(asset.iiif, null);
      const stored = sandbox.seed.assets.find((a) => a.id === asset.id)!;
      assert.equal(stored.size, bytes.byteLength, "the sandbox holds the whole file");
      assert.equal(sandbox.requests.filter((r) => r.url.endsWith("/finalize")).length, 0);
      const reads = sandbox.requests.filter((r) => r.method === "GET" && r.url.includes(asset.id));
      assert.equal(reads.length, 1, "one status read, no polling");
    } finally {
      await sandbox.close();
    }
  }
});
