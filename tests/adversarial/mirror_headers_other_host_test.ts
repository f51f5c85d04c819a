/**
 * A source reached with a key in a header (`headers: { "x-api-key": … }` or
 * `authorization`), with `allowOtherHosts: true` so that a source whose files
 * sit on a second host can be mirrored. The source's list names a resource
 * on yet another host (a second loopback listener): the resource may be
 * fetched, but the source's own credentials must not go with it, as a
 * browser drops them on a cross-origin redirect and as the mirror gives a
 * resource left to fetch the capability list's key on its origin only.
 * Class: a credential sent to another origin.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("the source's key in a header never goes to another host's resource", async () => {
  const key = "Hk3sPq9ZmW2xLr7T";
  const token = "Tk5nR2pQ8wLz3Xv9";
  const seen: string[] = [];
  const other = serveLocal((request) => {
    seen.push([...request.headers].map(([name, value]) => `${name}: ${value}`).join("\n"));
    return new Response("a file on another host");
  }, { maxRequests: 10 });
  const { server } = hostileResourceSync(
    () => [{ loc: `${other.url}/b.txt` }],
    () => undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      allowOtherHosts: true,
      headers: { "x-api-key": key, authorization: `Bearer ${token}` },
    });
    await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` }).catch(() => {});
    const heard = seen.join("\n");
    assert.ok(!heard.includes(key), `the other host got the x-api-key:\n${heard}`);
    assert.ok(!heard.includes(token), `the other host got the bearer token:\n${heard}`);
  } finally {
    await server.close();
    await other.close();
    await Deno.remove(root, { recursive: true });
  }
});
