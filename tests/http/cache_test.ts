import assert from "node:assert/strict";
import { CacheMissError, HttpClient, registerSecret } from "../../lib/http/mod.ts";
import { buildTable, defineSchema } from "../../lib/table/mod.ts";
import { startFaultServer } from "./_fault_server.ts";

const quiet = { progress: false as const, warn: () => {} };

async function cacheFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else found.push(path);
    }
  };
  await walk(dir).catch(() => {});
  return found.sort();
}

const schema = defineSchema([
  { name: "ok", type: "boolean" },
  { name: "n", type: "integer" },
  { name: "q", type: "string" },
]);

Deno.test("record then replay gives identical tables with the server gone", async () => {
  const dir = await Deno.makeTempDir();
  const server = startFaultServer();
  const url = server.url;
  let recorded;
  try {
    const http = new HttpClient(url, { ...quiet, cache: { dir, mode: "record" } });
    const first = await http.request({ path: "/ok", query: { q: "地図" } });
    const again = await http.request({ path: "/ok", query: { q: "地図" } });
    assert.equal(first.fromCache, false);
    assert.equal(again.fromCache, true, "record mode reuses what it stored");
    assert.equal(server.hits.get("/ok"), 1);
    recorded = buildTable(schema, [first.json() as Record<string, unknown>]);
  } finally {
    await server.close();
  }
  const offline = new HttpClient(url, {
    ...quiet,
    cache: { dir, mode: "replay" },
    fetch: () => Promise.reject(new Error("network used in replay mode")),
  });
  const replayed = await offline.request({ path: "/ok", query: { q: "地図" } });
  assert.equal(replayed.fromCache, true);
  const table = buildTable(schema, [replayed.json() as Record<string, unknown>]);
  assert.deepEqual(table.objects(), recorded.objects());
  await assert.rejects(
    offline.request({ path: "/ok", query: { q: "other" } }),
    (error: unknown) =>
      error instanceof CacheMissError &&
      /GET http:\/\/127\.0\.0\.1:\d+\/ok\?q=other/.test(error.message),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("refresh always fetches and overwrites", async () => {
  const dir = await Deno.makeTempDir();
  const server = startFaultServer();
  try {
    const http = new HttpClient(server.url, { ...quiet, cache: { dir, mode: "refresh" } });
    await http.request({ path: "/counter" });
    const second = await http.request({ path: "/counter" });
    assert.equal(second.fromCache, false);
    assert.deepEqual(second.json(), { n: 2 });
    const replay = new HttpClient(server.url, { ...quiet, cache: { dir, mode: "replay" } });
    assert.deepEqual((await replay.request({ path: "/counter" })).json(), { n: 2 });
    assert.equal((await cacheFiles(dir)).length, 1);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("signed, write and credentialed requests leave no secret on disk", async () => {
  const dir = await Deno.makeTempDir();
  const server = startFaultServer();
  const secret = "tp_key_91.cacheSecretValue77";
  registerSecret(secret);
  try {
    const http = new HttpClient(server.url, { ...quiet, cache: { dir, mode: "record" } });
    const signature = `0x${"cd".repeat(65)}`;
    await http.request({ path: "/ok", query: { signature, nonce: "1" }, sensitive: true });
    await http.request({ method: "POST", path: "/post", json: { write: true } });
    assert.equal((await cacheFiles(dir)).length, 0, "sensitive and write requests are not cached");
    // A read with a key in a header is cached, but the key never enters the file.
    await http.request({ path: "/ok", headers: { authorization: `Bearer ${secret}` } });
    const files = await cacheFiles(dir);
    assert.equal(files.length, 1);
    const text = await Deno.readTextFile(files[0]);
    assert.ok(!text.includes(secret) && !text.includes("cacheSecretValue77"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cache keys ignore credential parameters and parameter order", async () => {
  const dir = await Deno.makeTempDir();
  const server = startFaultServer();
  try {
    const http = new HttpClient(server.url, { ...quiet, cache: { dir, mode: "record" } });
    await http.request({ path: "/counter", query: { a: "1", b: "2" } });
    const same = await http.request({ path: "/counter", query: { b: "2", a: "1" } });
    assert.equal(same.fromCache, true);
    const other = await http.request({ path: "/counter", query: { a: "1", b: "3" } });
    assert.equal(other.fromCache, false);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the same request in another format is another cache entry", async () => {
  const dir = await Deno.makeTempDir();
  const server = startFaultServer();
  try {
    const http = new HttpClient(server.url, { ...quiet, cache: { dir, mode: "record" } });
    await http.request({
      path: "/counter",
      headers: { accept: "application/sparql-results+json" },
    });
    const xml = await http.request({
      path: "/counter",
      headers: { accept: "application/sparql-results+xml" },
    });
    assert.equal(xml.fromCache, false);
    const again = await http.request({
      path: "/counter",
      headers: { Accept: "application/sparql-results+json" },
    });
    assert.equal(again.fromCache, true);
    assert.deepEqual(again.json(), { n: 1 });
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay mode refuses requests that are never stored instead of using the network", async () => {
  const dir = await Deno.makeTempDir();
  let fetched = 0;
  const http = new HttpClient("http://127.0.0.1:9", {
    ...quiet,
    cache: { dir, mode: "replay" },
    fetch: () => {
      fetched++;
      return Promise.resolve(new Response("{}"));
    },
  });
  try {
    for (
      const request of [
        { path: "/api/services/compute", cacheable: false },
        { path: "/api/services/computeResult", sensitive: true },
        { method: "POST" as const, path: "/api/services/freeCompute", json: {} },
      ]
    ) {
      await assert.rejects(
        http.request(request),
        (error: unknown) =>
          error instanceof CacheMissError && /cannot be replayed/.test(error.message),
      );
    }
    await assert.rejects(http.stream({ path: "/api/services/download" }), CacheMissError);
    assert.equal(fetched, 0, "no network in replay mode");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
