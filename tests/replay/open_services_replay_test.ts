/**
 * openServices in replay mode: no sandbox starts (so nothing listens, and
 * `--deny-net` does not refuse it), the addresses are the recording's, and
 * the compute job skips in one line; without a recording it says how to make one.
 */

import assert from "node:assert/strict";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { OceanNode } from "../../lib/ocean/mod.ts";
import { computePlan, openServices, type Services } from "../../lib/sandbox/mod.ts";
import { writeRecordedServices } from "../../lib/sandbox/_recorded_services.ts";
import { registerGatewayKey } from "../../lib/subgraph/gateway_key.ts";

/** Runs with TIDEPOOL_* variables set as given (and every other one unset), then restores them. */
async function withCacheEnv(values: Record<string, string>, run: () => Promise<void>) {
  const saved = Object.entries(Deno.env.toObject()).filter(([name]) =>
    name.startsWith("TIDEPOOL_")
  );
  for (const [name] of saved) Deno.env.delete(name);
  for (const [name, value] of Object.entries(values)) Deno.env.set(name, value);
  try {
    await run();
  } finally {
    for (const name of Object.keys(values)) Deno.env.delete(name);
    for (const [name, value] of saved) Deno.env.set(name, value);
  }
}

Deno.test("openServices replays at the recorded addresses and starts no sandbox", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let recordedUrls: Services["urls"] | undefined;
    let recordedRows = 0;
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "record", TIDEPOOL_CACHE_DIR: dir }, async () => {
      const services = await openServices();
      try {
        assert.equal(services.replay, false);
        assert.deepEqual(services.cache, { dir, mode: "record" });
        recordedUrls = services.urls;
        const node = new OceanNode(services.urls.ocean, { cache: services.cache, progress: false });
        recordedRows = (await node.searchAssets({ type: "dataset" })).numRows();
      } finally {
        await services.close();
      }
    });
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: dir }, async () => {
      const services = await openServices();
      assert.equal(services.replay, true);
      assert.equal(services.sandbox, undefined, "no sandbox started in replay");
      assert.deepEqual(services.urls, recordedUrls);
      assert.deepEqual(services.archiveSite, { account: "shinano", db: "letters" });
      assert.deepEqual(services.cache, { dir, mode: "replay" });
      const node = new OceanNode(services.urls.ocean, {
        cache: services.cache,
        progress: false,
        fetch: (input) => Promise.reject(new Error(`network used in replay: ${input}`)),
      });
      assert.equal((await node.searchAssets({ type: "dataset" })).numRows(), recordedRows);
      const plan = await computePlan(node, services);
      assert.ok("skipped" in plan);
      assert.match(plan.skipped, /^compute: skipped in replay: .*signed request/);
      await services.close();
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notebooks recorded one after another into one folder all replay from it", async () => {
  const dir = await Deno.makeTempDir();
  const quiet = { progress: false as const };
  try {
    const urls: Services["urls"][] = [];
    let datasets = 0;
    let books = 0;
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "record", TIDEPOOL_CACHE_DIR: dir }, async () => {
      const first = await openServices();
      try {
        urls.push(first.urls);
        const node = new OceanNode(first.urls.ocean, { ...quiet, cache: first.cache });
        datasets = (await node.searchAssets({ type: "dataset" })).numRows();
      } finally {
        await first.close();
      }
      // The second recording's sandboxes listen where the first one's did.
      const second = await openServices();
      try {
        urls.push(second.urls);
        const ex = new ExpressionSearch(second.urls.expressions, { ...quiet, cache: second.cache });
        books = (await ex.books()).numRows();
      } finally {
        await second.close();
      }
    });
    assert.deepEqual(urls[1], urls[0]);
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: dir }, async () => {
      const services = await openServices();
      const offline = {
        ...quiet,
        cache: services.cache,
        fetch: (input: RequestInfo | URL) =>
          Promise.reject(new Error(`network used in replay: ${input}`)),
      };
      const node = new OceanNode(services.urls.ocean, offline);
      assert.equal((await node.searchAssets({ type: "dataset" })).numRows(), datasets);
      const ex = new ExpressionSearch(services.urls.expressions, offline);
      assert.equal((await ex.books()).numRows(), books);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a misspelt TIDEPOOL_CACHE_MODE is an error, not a silent live run", async () => {
  await withCacheEnv({ TIDEPOOL_CACHE_MODE: "replayed" }, async () => {
    await assert.rejects(
      () => openServices(),
      /Unknown cache mode in TIDEPOOL_CACHE_MODE: replayed/,
    );
  });
});

Deno.test("openServices in replay mode without a recording says how to make one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: dir }, async () => {
      await assert.rejects(() => openServices(), (error: Error) => {
        assert.match(error.message, /Cannot replay: no recording of the services in /);
        assert.match(error.message, /TIDEPOOL_CACHE_MODE=record/);
        return true;
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a replay whose recorded subgraph address held a key asks for it in the environment", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const key = "5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b";
    registerGatewayKey(`https://gateway.example/api/${key}/subgraphs/id/ocean`);
    await writeRecordedServices(dir, {
      urls: {
        ocean: "http://127.0.0.1:1",
        subgraph: `https://gateway.example/api/${key}/subgraphs/id/ocean`,
        expressions: "http://127.0.0.1:2",
        archive: "http://127.0.0.1:3",
      },
      archiveSite: { account: "a", db: "b" },
      live: true,
    });
    await withCacheEnv({ TIDEPOOL_CACHE_MODE: "replay", TIDEPOOL_CACHE_DIR: dir }, async () => {
      await assert.rejects(() => openServices(), (error: Error) => {
        assert.match(error.message, /recorded subgraph address held a key/);
        assert.match(error.message, /Set TIDEPOOL_SUBGRAPH/);
        assert.ok(!error.message.includes(key));
        return true;
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
