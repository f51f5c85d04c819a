/**
 * A re-list deletes the files of resources gone from the source. The user
 * moved a mirrored folder elsewhere (another disk) and left a link in its
 * place: a deletion must not go through that link and remove the user's
 * file outside the mirror's folder. Read back on the file system.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, type ListedResource, quiet } from "./_hostile_resourcesync.ts";

Deno.test("a re-list never deletes a file through a link on the way out of the folder", async () => {
  let listed: ListedResource[] = [{ loc: "/d/a.txt" }, { loc: "/d/b.txt" }];
  const { server } = hostileResourceSync(
    () => listed,
    (path) => path.startsWith("/d/") ? new Response(`content of ${path}`) : undefined,
  );
  const root = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const options = { state: `${root}/m.json`, dir: `${root}/files`, relistAfterDays: 0 };
    const first = await rs.mirror(options);
    assert.deepEqual(first.written.map((f) => f.path).sort(), ["d/a.txt", "d/b.txt"]);
    // The user moves the folder away (its files as they are) and leaves a link in its place.
    await Deno.rename(`${root}/files/d`, `${outside}/d`);
    await Deno.symlink(`${outside}/d`, `${root}/files/d`);
    // The source drops a.txt: the re-list finds it gone.
    listed = [{ loc: "/d/b.txt" }];
    await rs.mirror(options).catch(() => {});
    // Whatever the run says, the user's file outside the mirror's folder is still there.
    assert.equal(
      await Deno.readTextFile(`${outside}/d/a.txt`).catch(() => "deleted"),
      "content of /d/a.txt",
      "a file outside the mirror's folder was deleted through a link",
    );
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
