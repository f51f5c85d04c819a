/**
 * Ocean node tables carry their provenance: the node, the call, its
 * parameters without the signer's secrets, the node's version as "as of",
 * the row count, and the cache keys of the requests when recording.
 */

import assert from "node:assert/strict";
import { OceanNode, provenance, signerFromPrivateKey } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { TIDEPOOL_VERSION } from "../../lib/version.ts";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

Deno.test("searchAssets: node, operation, params, version, node version, rows, cache keys", async () => {
  const sandbox = startOceanSandbox({ count: 30 });
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(sandbox.url, {
      progress: false,
      cache: { dir, mode: "record" },
    });
    const before = new Date().toISOString();
    const assets = await node.searchAssets({ type: "dataset" }, { pageSize: 10 });
    const from = provenance(assets)!;
    assert.ok(from, "searchAssets returns a table with provenance");
    assert.equal(from.service, sandbox.url.replace(/\/$/, ""));
    assert.equal(from.operation, "OceanNode.searchAssets");
    assert.deepEqual(from.params, { filter: { type: "dataset" }, pageSize: 10 });
    assert.equal(from.tidepoolVersion, TIDEPOOL_VERSION);
    assert.equal(from.rows, assets.numRows());
    assert.equal(typeof from.asOf.nodeVersion, "string");
    assert.ok(from.startedAt >= before && from.endedAt >= from.startedAt);
    assert.ok(from.cacheKeys.length >= 2, "one key per page");
    assert.equal(new Set(from.cacheKeys).size, from.cacheKeys.length);
    const stored: string[] = [];
    for await (const entry of walk(dir)) stored.push(entry);
    for (const key of from.cacheKeys) {
      assert.ok(stored.includes(`${key}.json`), `cache file of ${key}`);
    }
    assert.ok(!assets.columnNames().some((name) => /provenance/i.test(name)));

    const again = await node.searchAssets({ type: "dataset" }, { pageSize: 10 });
    assert.deepEqual(provenance(again)!.cacheKeys, from.cacheKeys, "replayed from the same keys");
    // From the cache, the same record: the recording's times, keys and as-of.
    assert.deepEqual(provenance(again), from);

    // Replayed by a new client with the node gone: still the same record.
    await sandbox.close();
    const offline = new OceanNode(sandbox.url, { progress: false, cache: { dir, mode: "replay" } });
    const replayed = await offline.searchAssets({ type: "dataset" }, { pageSize: 10 });
    assert.deepEqual(provenance(replayed), from);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jobs of a signer: the address is kept, the key and signatures are not", async () => {
  const sandbox = startOceanSandbox({ count: 4 });
  try {
    const node = new OceanNode(sandbox.url, { progress: false });
    const signer = signerFromPrivateKey(KEY);
    const jobs = await node.jobs(signer);
    const from = provenance(jobs)!;
    assert.equal(from.operation, "OceanNode.jobs");
    assert.deepEqual(from.params, { consumer: signer.address });
    assert.deepEqual(from.cacheKeys, [], "no cache, no keys");
    const text = JSON.stringify(from);
    assert.ok(!text.includes(KEY.slice(2)), "no private key");
    assert.ok(!/0x[0-9a-f]{130}/i.test(text), "no signature");
  } finally {
    await sandbox.close();
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* walk(`${dir}/${entry.name}`);
    else yield entry.name;
  }
}
