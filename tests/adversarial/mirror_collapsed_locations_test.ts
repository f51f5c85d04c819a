/**
 * Two resources whose locations differ only in a parameter named like a
 * credential that holds no secret (`/get?key=alpha.csv`, `/get?key=beta.csv`:
 * an object store's or a download script's file key) are two resources. The
 * mirror keeps a location without its credential parameters, so both become
 * `/get`: one is fetched, the other is never asked for, and the run reports
 * success. A listed resource must end as a file holding its own bytes or in
 * the error; never dropped while the run succeeds. Class: success reported
 * when a resource was lost (two locations sharing one identity and one path).
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("two resources told apart by a ?key= parameter are both kept or the run fails", async () => {
  const { server, asked } = hostileResourceSync(
    () => [{ loc: "/get?key=alpha.csv" }, { loc: "/get?key=beta.csv" }],
    (path, request) =>
      path === "/get"
        ? new Response(`contents of ${new URL(request.url).searchParams.get("key")}`)
        : undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const outcome = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })
      .then(() => "succeeded", (e: unknown) => e);
    if (outcome !== "succeeded") {
      assert.ok(outcome instanceof MirrorError, `not a MirrorError: ${outcome}`);
      return; // refused by name: nothing lost in silence
    }
    // Success: each resource must have been asked for and be in a file of its own bytes.
    assert.deepEqual(asked.sort(), ["/get?key=alpha.csv", "/get?key=beta.csv"]);
    const texts: string[] = [];
    for await (const entry of Deno.readDir(`${root}/files`)) {
      if (entry.isFile) texts.push(await Deno.readTextFile(`${root}/files/${entry.name}`));
    }
    assert.deepEqual(texts.sort(), ["contents of alpha.csv", "contents of beta.csv"]);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
