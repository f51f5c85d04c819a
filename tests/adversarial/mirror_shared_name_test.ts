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

Deno.test("a path the journal gives to another location is refused, naming both, the file kept", async () => {
  const served = new Map([["/data/aA", "the first resource"], [
    "/data/a%41",
    "the second resource",
  ]]);
  let listed = ["/data/a%41"];
  const { server } = hostileResourceSync(
    () => listed.map((loc) => ({ loc })),
    (path) => {
      const body = served.get(path);
      return body === undefined ? undefined : new Response(body);
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    const first = await rs.mirror(options);
    const [{ path }] = first.written;
    // As an earlier version named it: /data/a%41 decoded to data/aA, untagged.
    await Deno.rename(`${root}/files/${path}`, `${root}/files/data/aA`);
    const journal = await Deno.readTextFile(`${root}/m.json.files.jsonl`);
    await Deno.writeTextFile(`${root}/m.json.files.jsonl`, journal.replace(path, "data/aA"));
    listed = ["/data/a%41", "/data/aA"];
    const error = await rs.mirror({ ...options, relistAfterDays: 0 }).catch((e: unknown) => e);
    assert.ok(error instanceof MirrorError, `not refused: ${error}`);
    assert.equal(error.result.unchanged, 1);
    assert.equal(error.failed.length, 1);
    assert.match(
      error.failed[0].message,
      /\/data\/aA: its file name data\/aA is that of .*\/data\/a%41/,
    );
    assert.deepEqual(error.result.written, []);
    assert.equal(await Deno.readTextFile(`${root}/files/data/aA`), "the second resource");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
