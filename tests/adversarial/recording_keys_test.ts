/**
 * A cache key never drops a part of the request: two requests that differ
 * only in a parameter named like a credential (`key`, `token`, `sig`) whose
 * value is no registered secret are two recordings, checked by a loopback
 * listener counting the requests it saw, and the value is nowhere on disk in
 * clear. A registered secret still stays out of the key, so a co-author
 * replaying with their own key finds the answers.
 */

import assert from "node:assert/strict";
import { HttpClient, registerSecret } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { recordingText } from "./_recording_text.ts";

for (const name of ["key", "token", "sig"]) {
  Deno.test(`?${name}=maps and ?${name}=letters are two recordings`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    const seen: string[] = [];
    const server = serveLocal((request) => {
      const value = new URL(request.url).searchParams.get(name) ?? "";
      seen.push(value);
      return Response.json({ records: `the records of ${value}` });
    }, { maxRequests: 10 });
    const ask = (http: HttpClient, value: string) =>
      http.request({ path: "/oai", query: { verb: "ListRecords", [name]: value } });
    let url: string;
    try {
      url = server.url;
      const http = new HttpClient(url, { progress: false, cache: { dir, mode: "record" } });
      assert.equal(
        (await ask(http, "maps-collection")).json<{ records: string }>().records,
        "the records of maps-collection",
      );
      const letters = await ask(http, "letters-collection");
      assert.equal(letters.fromCache, false);
      assert.equal(
        letters.json<{ records: string }>().records,
        "the records of letters-collection",
      );
      assert.equal(
        (await ask(http, "maps-collection")).fromCache,
        true,
        "the same request is recorded once",
      );
      assert.deepEqual(
        seen,
        ["maps-collection", "letters-collection"],
        "the server saw each request",
      );
    } finally {
      await server.close();
    }
    try {
      const text = await recordingText(dir);
      assert.ok(
        !text.includes("maps-collection") && !text.includes("letters-collection"),
        "no value in clear",
      );
      const offline = new HttpClient(url, {
        progress: false,
        cache: { dir, mode: "replay" },
        fetch: () => Promise.reject(new Error("network used in replay")),
      });
      assert.equal(
        (await ask(offline, "letters-collection")).json<{ records: string }>().records,
        "the records of letters-collection",
      );
      assert.equal(
        (await ask(offline, "maps-collection")).json<{ records: string }>().records,
        "the records of maps-collection",
      );
      await assert.rejects(
        ask(offline, "other-collection"),
        /not in the recording|never recorded|cache/i,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a registered key stays out of the cache key: a co-author's key replays the recording", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const mine = "mine.Hk3Lq9Zt2Vw8Xr5Ny7Bc";
  const theirs = "them.Pp4Rs6Tu8Wv0Xy2Za1Qb";
  registerSecret(mine);
  registerSecret(theirs);
  let count = 0;
  const server = serveLocal(() => (count++, Response.json({ ok: true })), { maxRequests: 5 });
  try {
    const http = new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } });
    await http.request({ path: "/q", query: { api_key: mine } });
    const again = await http.request({ path: "/q", query: { api_key: theirs } });
    assert.equal(again.fromCache, true);
    assert.equal(count, 1);
    const text = await recordingText(dir);
    assert.ok(!text.includes(mine) && !text.includes(theirs));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with TIDEPOOL_RECORDING_KEY, a replay finds the recording only with the same key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  let count = 0;
  const server = serveLocal(() => (count++, Response.json({ ok: true })), { maxRequests: 5 });
  const before = Deno.env.get("TIDEPOOL_RECORDING_KEY");
  const ask = (mode: "record" | "replay") =>
    new HttpClient(server.url, {
      progress: false,
      cache: { dir, mode },
      ...(mode === "replay"
        ? { fetch: () => Promise.reject(new Error("network used in replay")) }
        : {}),
    }).request({ path: "/q", query: { key: "maps-collection" } });
  try {
    Deno.env.set("TIDEPOOL_RECORDING_KEY", "a long random recording key 1");
    await ask("record");
    assert.equal((await ask("replay")).fromCache, true);
    Deno.env.set("TIDEPOOL_RECORDING_KEY", "another recording key 2");
    await assert.rejects(ask("replay"));
    Deno.env.delete("TIDEPOOL_RECORDING_KEY");
    await assert.rejects(ask("replay"));
    assert.equal(count, 1);
  } finally {
    if (before === undefined) Deno.env.delete("TIDEPOOL_RECORDING_KEY");
    else Deno.env.set("TIDEPOOL_RECORDING_KEY", before);
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
