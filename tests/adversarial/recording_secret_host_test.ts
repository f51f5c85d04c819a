/**
 * A recording holds no registered secret, one step to the side of its
 * files' contents: their names. A service that puts the key in its host
 * name (`https://<key>.gateway.example/`) names the recording's host folder;
 * the answer and a discovered setting are recorded, and every path under
 * the recording (folders and files, as the disk lists them) is searched for
 * the key, in any case (a host name is lower-cased). The requests reach a
 * loopback listener through the client's `fetch` option, which counts them.
 */

import assert from "node:assert/strict";
import { HttpClient, registerSecret, ResponseCache } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const KEY = "q7Kx2vN9pL4mR8sT1wY6zA3b";
registerSecret(KEY);

async function paths(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      found.push(path.slice(dir.length));
      if (entry.isDirectory) await walk(path);
    }
  };
  await walk(dir);
  return found;
}

Deno.test("a key in the service's host name is in no recording file's name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
  const seen: string[] = [];
  await using server = serveLocal((request) => {
    seen.push(new URL(request.url).pathname);
    return Response.json({ ok: true });
  }, { maxRequests: 4 });
  try {
    const base = `https://${KEY}.gateway.example`;
    const local = new URL(server.url);
    const http = new HttpClient(base, {
      progress: false,
      cache: { dir, mode: "record" },
      // The gateway is the loopback listener: the request goes there, its URL otherwise kept.
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        url.protocol = local.protocol;
        url.host = local.host;
        return fetch(url, init);
      },
    });
    await http.request({ path: "/ipfs/status" });
    await new ResponseCache({ dir, mode: "record" }).remember(base, {
      name: "pageSize",
      value: 100,
    });
    assert.deepEqual(seen, ["/ipfs/status"], "the answer came from the listener");
    const names = await paths(dir);
    assert.ok(names.some((p) => p.endsWith(".json")), names.join("\n"));
    for (const name of names) {
      assert.ok(!name.toLowerCase().includes(KEY.toLowerCase()), `the key names ${name}`);
      assert.ok(!name.toLowerCase().includes(KEY.slice(4, 16).toLowerCase()), `a piece: ${name}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
