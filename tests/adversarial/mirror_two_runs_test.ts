/**
 * Two mirror runs on one state and folder at once through the library (two
 * notebooks, or a script and a notebook): the command line holds a lock on
 * `<state>.lock`, `ResourceSync.mirror` holds none. Whatever the two runs
 * say, the mirror must still be whole afterwards: the next run completes,
 * and every file is the mirror's (the next re-list finds each one held).
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("two mirror runs on one state at once leave a mirror the next run completes", async () => {
  const listed = Array.from({ length: 12 }, (_, i) => ({ loc: `/data/${i}.txt` }));
  const { server } = hostileResourceSync(
    () => listed,
    async (path) => {
      if (!path.startsWith("/data/")) return undefined;
      // Slow enough that the two runs overlap.
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));
      return new Response(`bytes of ${path}`);
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    const client = () =>
      new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml", concurrency: 3 });
    await Promise.allSettled([client().mirror(options), client().mirror(options)]);
    const next = await client().mirror({ ...options, relistAfterDays: 0 })
      .then(() => undefined, (e: unknown) => e);
    assert.ok(next === undefined, `the run after two at once failed: ${next}`);
    const last = await client().mirror({ ...options, relistAfterDays: 0 });
    assert.equal(last.unchanged, listed.length, "every file held as the mirror's");
    for (const { loc } of listed) {
      assert.equal(await Deno.readTextFile(`${root}/files${loc}`), `bytes of ${loc}`);
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
