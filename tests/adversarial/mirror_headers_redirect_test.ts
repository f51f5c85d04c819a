/**
 * More members of "a credential sent to another origin", with
 * `allowOtherHosts: true`: a resource of the source's own that redirects to
 * another host, and one listed on another host with user information. The
 * other host (a second loopback listener) hears none of the client's
 * headers nor any `authorization`, while the source's own resource is still
 * asked with its key (so the key is not simply dropped everywhere).
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("a redirect or user information never takes the source's key to another host", async () => {
  const key = "Rk7wPq2ZnX9vLm4T";
  const heard: string[] = [];
  const other = serveLocal((request) => {
    heard.push([...request.headers].map(([name, value]) => `${name}: ${value}`).join("\n"));
    return new Response("a file on another host");
  }, { maxRequests: 10 });
  const ownKeys: (string | null)[] = [];
  const { server } = hostileResourceSync(
    () => [
      { loc: "/own.txt" },
      { loc: "/moved.txt" },
      { loc: other.url.replace("http://", "http://ann:Pw5xQ8zLk3Rt@") + "/c.txt" },
    ],
    (path, request) => {
      ownKeys.push(request.headers.get("x-api-key"));
      if (path === "/moved.txt") {
        return new Response(null, { status: 302, headers: { location: `${other.url}/moved.txt` } });
      }
      return path === "/own.txt" ? new Response("own") : undefined;
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      allowOtherHosts: true,
      headers: { "x-api-key": key },
    });
    await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` });
    assert.equal(heard.length, 2, "the other host was asked twice");
    const text = heard.join("\n").toLowerCase();
    assert.ok(!text.includes(key.toLowerCase()), `the other host got the key:\n${text}`);
    assert.ok(!text.includes("authorization"), `the other host got credentials:\n${text}`);
    assert.deepEqual(ownKeys, [key, key], "the source's own resources go with its key");
    assert.equal(await Deno.readTextFile(`${root}/files/own.txt`), "own");
  } finally {
    await server.close();
    await other.close();
    await Deno.remove(root, { recursive: true });
  }
});
