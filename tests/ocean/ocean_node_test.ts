import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  BotChallengeError,
  HttpError,
  NotFoundError,
  TidepoolError,
  TimeoutError,
} from "../../lib/http/mod.ts";
import { columnTypes } from "../../lib/table/mod.ts";
import type { Ddo } from "../../lib/ocean/mod.ts";
import { withNode } from "./_helpers.ts";
import { SANDBOX_FREE_ALLOWLIST, SANDBOX_WALLET_ADDRESS } from "../../lib/sandbox/ocean/mod.ts";

const MISSING = `did:op:${"0".repeat(64)}`;

function freshDdo(template: Ddo, hex: string): Ddo {
  return {
    ...structuredClone(template),
    id: `did:op:${hex.repeat(64 / hex.length)}`,
    indexedMetadata: {
      ...structuredClone(template.indexedMetadata),
      // ocean-node's indexer writes `txid`; the spec says `tx` (seeds vary it).
      event: {
        ...template.indexedMetadata!.event,
        [template.indexedMetadata!.event!.txid === undefined ? "tx" : "txid"]: `0x${
          hex.repeat(64 / hex.length)
        }`,
      },
    },
  };
}

Deno.test("info and nonce read the node and the stored nonce as a string", async () => {
  const address = "0x1bE0BbB6C7f2B4a5d0E1cB2F0c3D4E5F6a7B8C9d";
  await withNode({ count: 5, nonces: { [address]: "1767225600123" } }, async (node, sandbox) => {
    const info = await node.info();
    assert.equal(info.version, "4.2.0");
    assert.deepEqual(info.chainIds, ["11155111"]);
    assert.equal(await node.nonce(address.toLowerCase()), "1767225600123");
    assert.equal(await node.nonce(`0x${"ab".repeat(20)}`), "0");
    const before = sandbox.requestCount;
    await assert.rejects(() => node.nonce("0x12"), /Invalid address: 0x12/);
    assert.equal(sandbox.requestCount, before);
  });
});

Deno.test("ddo returns the DDO, checks the DID locally and explains a 404", async () => {
  await withNode({ count: 5 }, async (node, sandbox) => {
    const ddo = await node.ddo(sandbox.ddos[2].id);
    // Every seeded field comes back; a seeded sandbox may add fields the spec does not list.
    const seeded = sandbox.ddos[2] as unknown as Record<string, unknown>;
    const got = ddo as unknown as Record<string, unknown>;
    assert.deepEqual(Object.fromEntries(Object.keys(seeded).map((k) => [k, got[k]])), seeded);
    const before = sandbox.requestCount;
    await assert.rejects(() => node.ddo("did:op:1234"), /Invalid DID: did:op:1234/);
    await assert.rejects(
      () => node.ddo(sandbox.ddos[0].id.toUpperCase().replace("DID:OP:", "did:op:")),
      (error: unknown) => error instanceof TidepoolError && /lower case/.test(error.message),
    );
    assert.equal(sandbox.requestCount, before, "bad DIDs never reach the node");
    await assert.rejects(() => node.ddo(MISSING), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.match(error.message, /not indexed/);
      assert.match(error.message, /DDO not found/);
      assert.match(error.hint ?? "", /ddoState/);
      return true;
    });
  });
});

Deno.test("ddoState needs exactly one key, normalises error and explains the empty 404", async () => {
  await withNode({ count: 5 }, async (node, sandbox) => {
    const ddo = sandbox.ddos[1];
    const byDid = await node.ddoState({ did: ddo.id });
    assert.equal(byDid.valid, true);
    assert.equal(byDid.error, null);
    const byNft = await node.ddoState({ nft: ddo.nftAddress.toLowerCase() });
    assert.equal(byNft.did, ddo.id);
    const byTx = await node.ddoState({
      txId: String(ddo.indexedMetadata!.event!.txid ?? ddo.indexedMetadata!.event!.tx),
    });
    assert.equal(byTx.did, ddo.id);
    const before = sandbox.requestCount;
    await assert.rejects(
      () => node.ddoState({ did: ddo.id, txId: "0x1" } as unknown as { did: string }),
      /exactly one of did, didPrefix, nft or txId, got did, txId/,
    );
    await assert.rejects(() => node.ddoState({} as { did: string }), /got none/);
    assert.equal(sandbox.requestCount, before);
    await assert.rejects(
      () => node.ddoState({ txId: "0xdeadbeef" }),
      (error: unknown) => error instanceof NotFoundError && /never seen/.test(error.message),
    );
    sandbox.publish(freshDdo(ddo, "ab"), {
      rejectWith: "Unencrypted DDO hash does not match metadata hash.",
    });
    const rejected = await node.ddoState({ did: `did:op:${"ab".repeat(32)}` });
    assert.equal(rejected.valid, false);
    assert.equal(rejected.error, "Unencrypted DDO hash does not match metadata hash.");
  });
});

Deno.test("query passes both body forms and refuses what the node would ignore", async () => {
  await withNode({ count: 120 }, async (node, sandbox) => {
    const datasets = sandbox.ddos.filter((d) => d.metadata.type === "dataset");
    const [es] = await node.query({
      from: 10,
      size: 5,
      query: { bool: { filter: [{ term: { "metadata.type": "dataset" } }] } },
    });
    assert.equal(es.found, datasets.length);
    assert.equal(es.out_of, 120);
    assert.deepEqual(es.hits.map((h) => h.document.id), datasets.slice(10, 15).map((d) => d.id));
    assert.match(es.request_params.collection_name, /_ddo_v4\.1\.0$/);

    const [notUnlisted] = await node.query({
      size: 1,
      query: { bool: { must_not: [{ terms: { "indexedMetadata.nft.state": [5] } }] } },
    });
    assert.equal(
      notUnlisted.found,
      sandbox.ddos.filter((d) => d.indexedMetadata!.nft!.state !== 5).length,
    );

    const [ts] = await node.query({ filter_by: "metadata.type:=algorithm", per_page: 3, page: 2 });
    assert.equal(ts.page, 2);
    assert.equal(ts.hits.length, 3);
    assert.ok(ts.hits.every((h) => h.document.metadata.type === "algorithm"));

    const [all] = await node.query({ query: { bool: { filter: [] } }, size: 250 });
    assert.equal(all.found, 120);

    const before = sandbox.requestCount;
    const refused: [unknown, RegExp][] = [
      [{ query: { match: { "metadata.name": "x" } } }, /query\.match/],
      [
        { query: { bool: { must: [{ term: { "metadata.type": "dataset" } }] } } },
        /query\.bool\.must\b/,
      ],
      [{ query: { bool: { filter: [{ exists: { field: "x" } }] } } }, /filter\[0\]\.exists/],
      [{ query: { bool: { filter: [{ bool: { filter: [] } }] } } }, /filter\[0\]\.bool/],
      [{ aggs: { types: { terms: { field: "metadata.type" } } } }, /aggs/],
      [
        { query: { bool: { filter: [{ term: { "metadata.type.keyword": "dataset" } }] } } },
        /\.keyword/,
      ],
      [{ sort: { "metadata.created": "up" } }, /asc or desc/],
    ];
    for (const [body, pattern] of refused) {
      await assert.rejects(
        () => node.query(body as { filter_by: string }),
        (error: unknown) => {
          assert.ok(error instanceof TidepoolError);
          assert.match(error.message, /silently ignore/);
          assert.match(error.message, pattern);
          return true;
        },
      );
    }
    assert.equal(sandbox.requestCount, before, "refused bodies are never sent");

    sandbox.queryFailure = true;
    await assert.rejects(
      () => node.query({ filter_by: "" }),
      (error: unknown) =>
        error instanceof HttpError && error.status === 500 && /ECONNREFUSED/.test(error.message),
    );
  });
});

Deno.test("fileInfo gives the real size and SHA-256 of the sandbox files", async () => {
  await withNode({ count: 40 }, async (node, sandbox) => {
    const ddo = sandbox.ddos.find((d) =>
      d.metadata.type === "dataset" && d.services.every((s) => s.type === "compute")
    )!;
    const files = await node.fileInfo({ did: ddo.id, serviceId: ddo.services[0].id });
    assert.deepEqual(files.columnNames(), [
      "index",
      "valid",
      "name",
      "type",
      "contentType",
      "contentLength",
      "checksum",
    ]);
    assert.ok(files.numRows() >= 1);
    assert.equal(columnTypes(files).contentLength, "number");
    assert.equal(typeof files.get("contentLength", 0), "number");

    const url = `${sandbox.url}/files/tides.csv`;
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const info = await node.fileInfo({ type: "url", url, method: "GET" });
    assert.equal(info.get("valid", 0), true);
    assert.equal(info.get("contentLength", 0), bytes.byteLength);
    assert.equal(info.get("checksum", 0), createHash("sha256").update(bytes).digest("hex"));

    const unreachable = await node.fileInfo({ type: "url", url: "http://127.0.0.1:9/x" });
    assert.equal(unreachable.get("valid", 0), false);

    await assert.rejects(() => node.fileInfo({} as { type: string }), /file object with type/);
    await assert.rejects(() => node.fileInfo({ did: "did:op:x", serviceId: "1" }), /Invalid DID/);
    await assert.rejects(
      () => node.fileInfo({ did: ddo.id, serviceId: "nope" }),
      (error: unknown) => error instanceof HttpError && error.status === 400,
    );
  });
});

Deno.test("computeEnvironments and environmentsTable carry the trial values", async () => {
  await withNode({ count: 1 }, async (node) => {
    const [env] = await node.computeEnvironments(11155111);
    assert.equal(env.fees, null);
    assert.equal(env.free?.maxJobs, 3);
    const table = await node.environmentsTable(11155111);
    assert.equal(table.numRows(), 1);
    const row = table.object(0) as Record<string, unknown>;
    assert.equal(row.minJobDuration, 10);
    assert.equal(row.maxJobDuration, 600);
    assert.equal(row.maxJobs, 3);
    assert.deepEqual([row.cpuTotal, row.cpuMax, row.cpuMin], [6, 2, 1]);
    assert.deepEqual([row.ramTotal, row.ramMax, row.ramMin], [8, 2, 1]);
    assert.deepEqual([row.diskTotal, row.diskMax, row.diskMin], [98, 10, 0]);
    // A GPU only where the seed gives the environment one (see sandbox_gpu_test.ts).
    const gpu = env.resources?.find((r) => r.type === "gpu");
    assert.equal(row.gpuTotal, gpu ? gpu.total : null);
    assert.equal(row.enableNetwork, false);
    assert.equal(row.paid, false);
    assert.equal(row.freeAllowlistSize, SANDBOX_FREE_ALLOWLIST.length);
    assert.ok(env.free?.access?.addresses?.includes(SANDBOX_WALLET_ADDRESS));
    assert.equal((await node.environmentsTable(1)).numRows(), 0);
    await assert.rejects(() => node.computeEnvironments(1.5), /Invalid chainId/);
  });
});

Deno.test("waitForIndexed polls until indexed, and throws the indexer's rejection", async () => {
  await withNode({ count: 3 }, async (node, sandbox) => {
    const pending = freshDdo(sandbox.ddos[0], "cd");
    sandbox.publish(pending, { pollsBeforeSeen: 3 });
    await assert.rejects(() => node.ddo(pending.id), NotFoundError);
    const ddo = await node.waitForIndexed(pending.id, { pollMs: 5, timeoutMs: 5_000 });
    assert.equal(ddo.id, pending.id);

    const byTx = freshDdo(sandbox.ddos[1], "ef");
    sandbox.publish(byTx, { pollsBeforeSeen: 1 });
    const found = await node.waitForIndexed({
      txId: String(byTx.indexedMetadata!.event!.txid ?? byTx.indexedMetadata!.event!.tx),
    }, {
      pollMs: 5,
    });
    assert.equal(found.id, byTx.id);

    const bad = freshDdo(sandbox.ddos[2], "12");
    sandbox.publish(bad, {
      pollsBeforeSeen: 1,
      rejectWith: "Unencrypted DDO hash does not match metadata hash.",
    });
    await assert.rejects(
      () => node.waitForIndexed(bad.id, { pollMs: 5 }),
      /rejected the asset: .*Unencrypted DDO hash does not match metadata hash\./,
    );

    await assert.rejects(
      () => node.waitForIndexed(`did:op:${"9".repeat(64)}`, { pollMs: 10, timeoutMs: 60 }),
      (error: unknown) =>
        error instanceof TimeoutError && /not seen by the indexer/.test(error.message),
    );
  });
});

Deno.test("a bot challenge becomes BotChallengeError on every method", async () => {
  await withNode({ count: 3 }, async (node, sandbox) => {
    sandbox.botChallenge = true;
    await assert.rejects(() => node.info(), BotChallengeError);
    await assert.rejects(() => node.searchAssets(), BotChallengeError);
    await assert.rejects(() => node.ddo(sandbox.ddos[0].id), BotChallengeError);
  });
});
