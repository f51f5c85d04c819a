import assert from "node:assert/strict";
import { ProtocolError } from "../../lib/http/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import type { ProgressEvent } from "../../lib/http/mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { SANDBOX_NOW } from "../../lib/sandbox/sandbox_now.ts";
import { withNode } from "./_helpers.ts";

const COLUMNS = [
  "did",
  "name",
  "type",
  "description",
  "author",
  "license",
  "tags",
  "created",
  "updated",
  "chainId",
  "nftAddress",
  "owner",
  "nftState",
  "nftStateLabel",
  "datatokens",
  "serviceIds",
  "serviceTypes",
  "computeAllowed",
  "allowRawAlgorithm",
  "allowNetworkAccess",
  "serviceEndpoint",
  "algorithmLanguage",
  "algorithmImage",
  "indexedBlock",
  "indexedAt",
];

Deno.test("searchAssets returns every listed asset of 2,000, typed, in the promised columns", async () => {
  const sandbox = startOceanSandbox();
  const events: ProgressEvent[] = [];
  const warnings: string[] = [];
  try {
    const node = new OceanNode(sandbox.url, {
      progress: (event) => events.push(event),
      warn: (m) => warnings.push(m),
    });
    const table = await node.searchAssets();
    const listed = sandbox.ddos.filter((d) => d.indexedMetadata!.nft!.state !== 5);
    assert.equal(table.numRows(), listed.length);
    assert.ok(listed.length < sandbox.ddos.length, "the seed has unlisted assets");
    assert.deepEqual(table.columnNames().slice(0, COLUMNS.length), COLUMNS);
    assert.deepEqual(new Set(table.array("did")), new Set(listed.map((d) => d.id)));
    assert.ok(!table.array("nftState").includes(5));
    const types = columnTypes(table);
    assert.equal(types.created, "date");
    assert.equal(types.chainId, "integer");
    assert.ok(table.get("created", 0) instanceof Date);
    assert.ok(table.get("indexedAt", 0) instanceof Date);
    assert.ok(Array.isArray(table.get("tags", 0)));
    assert.equal(typeof table.get("indexedBlock", 0), "number");
    assert.deepEqual(warnings, []);
    const last = events.at(-1)!;
    assert.equal(last.state, "done");
    assert.equal(last.total, listed.length);
    assert.equal(last.done, listed.length);
  } finally {
    await sandbox.close();
  }
});

Deno.test("searchAssets with includeUnlisted returns all 2,000 and the state labels", async () => {
  await withNode({}, async (node, sandbox) => {
    const table = await node.searchAssets({}, { includeUnlisted: true });
    assert.equal(table.numRows(), sandbox.ddos.length);
    const labels = new Set(table.array("nftStateLabel"));
    assert.ok(labels.has("unlisted") && labels.has("active"));
    const five = await node.searchAssets({ nftState: 5 });
    assert.equal(
      five.numRows(),
      sandbox.ddos.filter((d) => d.indexedMetadata!.nft!.state === 5).length,
    );
  });
});

Deno.test("searchAssets with a filter nothing matches has 0 rows and the same columns", async () => {
  await withNode({ count: 300 }, async (node, _sandbox, warnings) => {
    const table = await node.searchAssets({ tags: ["no-such-tag"] });
    assert.equal(table.numRows(), 0);
    assert.deepEqual(table.columnNames().slice(0, COLUMNS.length), COLUMNS);
    assert.equal(columnTypes(table).created, "date");
    assert.deepEqual(warnings, []);
  });
});

Deno.test("searchAssets filters by type, tags, author, owner, chain, text and dates", async () => {
  await withNode({ count: 600 }, async (node, sandbox) => {
    const listed = sandbox.ddos.filter((d) => d.indexedMetadata!.nft!.state !== 5);
    const algorithms = await node.searchAssets({ type: "algorithm" });
    assert.equal(
      algorithms.numRows(),
      listed.filter((d) => d.metadata.type === "algorithm").length,
    );
    assert.ok(algorithms.array("algorithmImage").every((image) => typeof image === "string"));

    const tagged = await node.searchAssets({ tags: ["energy", "ocean"] });
    const expectedTags = listed.filter((d) =>
      d.metadata.tags!.some((t) => t === "energy" || t === "ocean")
    );
    assert.equal(tagged.numRows(), expectedTags.length);

    const author = listed[0].metadata.author;
    const byAuthor = await node.searchAssets({ author });
    assert.equal(byAuthor.numRows(), listed.filter((d) => d.metadata.author === author).length);

    const owner = listed[0].indexedMetadata!.nft!.owner;
    const byOwner = await node.searchAssets({ owner: owner.toLowerCase() });
    assert.equal(
      byOwner.numRows(),
      listed.filter((d) => d.indexedMetadata!.nft!.owner === owner).length,
    );
    assert.ok(byOwner.numRows() > 0);

    assert.equal((await node.searchAssets({ chainId: 1 })).numRows(), 0);

    const text = await node.searchAssets({ text: "solar" });
    assert.ok(text.numRows() > 0);
    assert.ok(
      (Array.from(text.array("name")) as string[]).every((n) => n.toLowerCase().includes("solar")),
    );

    // The last year of a catalogue whose DDOs span two years before SANDBOX_NOW.
    const after = new Date(SANDBOX_NOW - 365 * 86_400_000);
    const recent = await node.searchAssets({ createdAfter: after });
    assert.equal(
      recent.numRows(),
      listed.filter((d) => Date.parse(d.metadata.created) >= after.getTime()).length,
    );
    assert.ok(recent.numRows() > 0 && recent.numRows() < listed.length);
  });
});

Deno.test("searchAssets de-duplicates DIDs repeated in a second collection", async () => {
  await withNode({ count: 400 }, async (node, sandbox, warnings) => {
    sandbox.duplicateCollection = 120;
    const table = await node.searchAssets({}, { includeUnlisted: true });
    assert.equal(table.numRows(), 400);
    assert.equal(new Set(table.array("did")).size, 400);
    assert.deepEqual(warnings, []);
  });
});

Deno.test("searchAssets warns with found versus received when the node forces one page", async () => {
  await withNode({ count: 700 }, async (node, sandbox, warnings) => {
    sandbox.fixedPageSize = 100;
    const before = sandbox.requestCount;
    const table = await node.searchAssets({}, { includeUnlisted: true });
    assert.equal(table.numRows(), 100);
    // Two pages, and the node's version for the table's provenance (asked once per client).
    assert.equal(sandbox.requestCount - before, 3, "stops at the repeated page");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /received 100 of the 700 documents/);
    assert.match(warnings[0], /repeated page 1/);
  });
});

Deno.test("searchAssets reports an empty answer as no collection answered", async () => {
  await withNode({ count: 50 }, async (node) => {
    await assert.rejects(
      () => node.searchAssets({ raw: "metadata.nosuchfield:=x" }),
      (error: unknown) =>
        error instanceof ProtocolError && /No collection answered/.test(error.message),
    );
  });
});

Deno.test("searchAssets refuses bad filter values before any request", async () => {
  await withNode({ count: 10 }, async (node, sandbox) => {
    const before = sandbox.requestCount;
    await assert.rejects(() => node.searchAssets({ owner: "0x123" }), /Invalid owner/);
    await assert.rejects(() => node.searchAssets({ nftState: 7 }), /Invalid nftState/);
    // Only the Typesense form (needed for text) cannot carry a backtick.
    await assert.rejects(() => node.searchAssets({ author: "a`b", text: "x" }), /backtick/);
    await assert.rejects(() => node.searchAssets({ createdAfter: "soon" }), /Invalid createdAfter/);
    assert.equal(sandbox.requestCount, before);
  });
});
