/**
 * A cache key never drops a part of the request, one step to the side of
 * the query string: a body given as bytes. Two bodies that differ only in
 * bytes a text decoder would replace or skip (bytes that are not UTF-8,
 * each read as U+FFFD; a leading byte order mark, dropped) are two requests
 * and two recordings. Checked by a loopback listener that answers with the
 * bytes it received and counts the requests, and by the files on disk.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function recordedFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".json")) found.push(path);
    }
  };
  await walk(dir);
  return found;
}

const CASES: [string, number[], number[]][] = [
  ["two bytes that are not UTF-8", [0x7b, 0xff, 0x7d], [0x7b, 0xfe, 0x7d]],
  ["a lone continuation byte and a truncated sequence", [0x61, 0x80], [0x61, 0xe2, 0x82]],
  ["a byte order mark in front", [0xef, 0xbb, 0xbf, 0x61], [0x61]],
];

for (const [what, first, second] of CASES) {
  Deno.test(`bodies differing in ${what} are two recordings`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    const seen: string[] = [];
    const server = serveLocal(async (request) => {
      const body = hex(new Uint8Array(await request.arrayBuffer()));
      seen.push(body);
      return Response.json({ received: body });
    }, { maxRequests: 10 });
    try {
      const http = new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } });
      const ask = (bytes: number[]) =>
        http.request({
          method: "POST",
          path: "/query",
          body: new Uint8Array(bytes),
          headers: { "content-type": "application/octet-stream" },
          idempotent: true,
        });
      const a = await ask(first);
      const b = await ask(second);
      assert.equal(a.json<{ received: string }>().received, hex(new Uint8Array(first)));
      assert.equal(
        b.json<{ received: string }>().received,
        hex(new Uint8Array(second)),
        "the second body got its own answer, not the first one's",
      );
      assert.deepEqual(seen, [first, second].map((bytes) => hex(new Uint8Array(bytes))));
      assert.equal((await recordedFiles(dir)).length, 2, "two recordings on disk");
      // The same bytes again: the recording answers, the listener is not asked.
      assert.equal((await ask(second)).fromCache, true);
      assert.equal(seen.length, 2);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
