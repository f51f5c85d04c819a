/**
 * A user's file where a resource goes is refused by name and kept. But the
 * mirror journals its claim (path, size, SHA-256) before it tries the name,
 * and a claim whose naming was refused is never taken back. When the user's
 * file has the bytes the source serves (a copy the user fetched by hand, an
 * empty placeholder and an empty resource), the next run finds "a file it
 * claimed" there with the claimed digest, adopts it as its own and reports
 * it unchanged; a re-list after the source drops the resource then deletes
 * the user's file. A run that ends normally compacts the journal and drops
 * the refused claim; one that stops (the signal, a host that stops
 * answering, a kill) keeps it. The file must survive every run, read back
 * from the disk.
 * Class: the cleanup deleting a user's file (a stale claim adopting it).
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("a user's file refused once is never adopted by its refused claim, nor deleted", async () => {
  let listed = [{ loc: "/first.txt" }];
  const stop = new AbortController();
  const { server } = hostileResourceSync(
    () => listed,
    async (path) => {
      if (path === "/notes.txt") return new Response("my notes");
      if (path === "/later.txt") {
        // The run is stopped while this one is under way, after notes.txt was refused.
        await new Promise((resolve) => setTimeout(resolve, 200));
        stop.abort(new Error("stopped by the user"));
        return new Response("later");
      }
      return new Response("first");
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      concurrency: 1,
    });
    const options = { state: `${root}/m.json`, dir: `${root}/files`, relistAfterDays: 0 };
    await rs.mirror(options);
    // The user puts a copy of their own in the folder, where the source's notes.txt will go.
    await Deno.writeTextFile(`${root}/files/notes.txt`, "my notes");
    listed = [{ loc: "/first.txt" }, { loc: "/notes.txt" }, { loc: "/later.txt" }];
    const stopped = await rs.mirror({ ...options, signal: stop.signal }).catch((e: unknown) => e);
    assert.ok(stopped instanceof Error, "the run was stopped");
    listed = [{ loc: "/first.txt" }, { loc: "/notes.txt" }];
    const again = await rs.mirror(options).then(
      (result) => `adopted: ${result.unchanged} unchanged`,
      (e: unknown) => e,
    );
    listed = [{ loc: "/first.txt" }];
    await rs.mirror(options).catch(() => {});
    assert.equal(
      await Deno.readTextFile(`${root}/files/notes.txt`).catch(() => "deleted"),
      "my notes",
      `the user's file is gone (the run before said: ${again})`,
    );
    assert.ok(again instanceof MirrorError, `the user's file was taken as the mirror's: ${again}`);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
