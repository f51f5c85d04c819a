/**
 * More members of "two locations sharing one identity": locations told
 * apart only by their user information, or by an `api-key` value, are each
 * refused by name and never asked for (the source's own count), while one
 * location listed twice as it is stays one resource and is kept.
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

async function outcomeOf(listed: (origin: string) => string[]) {
  const { server, asked } = hostileResourceSync(
    (origin) => listed(origin).map((loc) => ({ loc })),
    (path) => new Response(`bytes of ${path}`),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const outcome = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })
      .then((result) => result, (e: unknown) => e);
    return { outcome, asked: asked.sort() };
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("locations told apart by user information or a key's value are each refused, never asked", async () => {
  const cases = [
    (o: string) => [o.replace("//", "//ann:1@") + "/x.txt", o.replace("//", "//bob:2@") + "/x.txt"],
    () => ["/y.txt?api-key=one", "/y.txt?api-key=two", "/y.txt?api-key=three"],
  ];
  for (const listed of cases) {
    const { outcome, asked } = await outcomeOf((o) => [...listed(o), "/fine.txt"]);
    assert.ok(outcome instanceof MirrorError, `not refused: ${outcome}`);
    assert.equal(outcome.failed.length, listed("http://h").length);
    assert.deepEqual(asked, ["/fine.txt"]);
  }
});

Deno.test("one location listed twice as it is is one resource, kept", async () => {
  const { outcome, asked } = await outcomeOf(() => ["/z.txt?api-key=one", "/z.txt?api-key=one"]);
  assert.ok(!(outcome instanceof Error), `refused: ${outcome}`);
  assert.deepEqual(asked, ["/z.txt?api-key=one"]);
});
