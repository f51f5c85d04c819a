/**
 * Two resources whose locations differ but whose paths in the folder are
 * the same (`/aA` and `/a%41`: the segment is decoded before it is made
 * safe, and unchanged segments get no tag) are downloaded at the same time.
 * The mirror refuses one when they come one after another; at the same
 * time, the second replaces the first's file and both are reported written.
 * Every file the mirror reports must hold the bytes its own resource serves,
 * read back from the disk.
 */

import assert from "node:assert/strict";
import {
  type MirroredFile,
  MirrorError,
  ResourceSync,
} from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("two resources downloaded at once never share one file, each reported file holds its own bytes", async () => {
  const served = new Map([["/aA", "the first resource"], ["/a%41", "the second resource"]]);
  const { server } = hostileResourceSync(
    () => [{ loc: "/aA" }, { loc: "/a%41" }],
    async (path) => {
      const body = served.get(path);
      if (body === undefined) return undefined;
      // The second ends after the first is written and recorded.
      if (path === "/a%41") await new Promise((resolve) => setTimeout(resolve, 300));
      return new Response(body);
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      concurrency: 2,
    });
    let written: MirroredFile[];
    try {
      written = (await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })).written;
    } catch (error) {
      // Refusing one of them is fine: what is reported written must still be true.
      if (!(error instanceof MirrorError)) throw error;
      written = error.result.written;
    }
    const paths = written.map((f) => f.path);
    assert.equal(new Set(paths).size, paths.length, `two resources reported at one path: ${paths}`);
    for (const file of written) {
      const loc = new URL(file.loc).pathname;
      assert.equal(
        await Deno.readTextFile(`${root}/files/${file.path}`),
        served.get(loc),
        `${file.path}, reported as ${loc}, holds another resource's bytes`,
      );
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
