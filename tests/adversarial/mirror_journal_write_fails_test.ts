/**
 * A mirror gives a downloaded file its name first and records it in its
 * journal after. When the journal's line cannot be written (a full disk, or
 * here a folder in the journal's place while the run is under way), or the
 * process dies between the two, the file is in the folder under its name and
 * the journal does not know it: every later run refuses it as a file
 * "tidepool did not write" and never completes. Once the journal can be
 * written again, the next run must finish with the file holding its
 * resource's bytes, read back from the disk.
 */

import assert from "node:assert/strict";
import { MirrorError, ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet } from "./_hostile_resourcesync.ts";

Deno.test("a run whose journal line failed leaves no file the next run refuses as not its own", async () => {
  const root = await Deno.makeTempDir();
  const state = `${root}/m.json`;
  let blocked = false;
  const { server } = hostileResourceSync(
    () => [{ loc: "/data/a.txt" }],
    async (path) => {
      if (path !== "/data/a.txt") return undefined;
      if (!blocked) {
        // The journal cannot be appended to from here on (as on a full disk).
        blocked = true;
        await Deno.mkdir(`${state}.files.jsonl`);
      }
      return new Response("the resource's bytes");
    },
  );
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const options = { state, dir: `${root}/files` };
    await assert.rejects(rs.mirror(options), "the journal could not be written");
    // The disk has room again.
    await Deno.remove(`${state}.files.jsonl`);
    const error = await rs.mirror(options).then(() => undefined, (e: unknown) => e);
    assert.ok(error === undefined, `the next run failed: ${error}`);
    assert.equal(await Deno.readTextFile(`${root}/files/data/a.txt`), "the resource's bytes");
    // And the run after knows the file as its own.
    const again = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.equal(again.unchanged, 1);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("files named but never recorded are the mirror's by their claimed digest; an edited one is kept, not replaced", async () => {
  let version = "2026-01-01T00:00:00Z";
  const { server, asked } = hostileResourceSync(
    () => [
      { loc: "/data/a.txt", lastmod: "2026-01-01T00:00:00Z" },
      { loc: "/data/b.txt", lastmod: version },
    ],
    (path) => path.startsWith("/data/") ? new Response(`bytes of ${path} ${version}`) : undefined,
  );
  const root = await Deno.makeTempDir();
  const state = `${root}/m.json`;
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const options = { state, dir: `${root}/files` };
    await rs.mirror(options);
    // As a run stopped after naming each file and before recording it: only the claims are left.
    const lines = (await Deno.readTextFile(`${state}.files.jsonl`)).trim().split("\n");
    assert.equal(lines.length, 2);
    const claims = lines.map((line) => JSON.stringify({ ...JSON.parse(line), claimed: true }));
    await Deno.writeTextFile(`${state}.files.jsonl`, claims.join("\n") + "\n");
    // The user edits b meanwhile, and the source updates b.
    await Deno.writeTextFile(`${root}/files/data/b.txt`, "the user's words");
    version = "2026-02-01T00:00:00Z";
    asked.length = 0;
    const error = await rs.mirror({ ...options, relistAfterDays: 0 }).catch((e: unknown) => e);
    // a is the mirror's by its claimed digest: not fetched again, not refused.
    assert.ok(error instanceof MirrorError, `b's edit was not refused: ${error}`);
    assert.equal(error.result.unchanged, 1);
    assert.deepEqual(asked, ["/data/b.txt"]);
    assert.match(error.failed[0].message, /data\/b\.txt was changed since tidepool wrote it/);
    assert.equal(await Deno.readTextFile(`${root}/files/data/b.txt`), "the user's words");
    // a is recorded as written now: the run after holds it, still without asking.
    await Deno.remove(`${root}/files/data/b.txt`);
    asked.length = 0;
    const again = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.equal(again.unchanged, 1);
    assert.deepEqual(asked, ["/data/b.txt"]);
    assert.equal(
      await Deno.readTextFile(`${root}/files/data/a.txt`),
      "bytes of /data/a.txt 2026-01-01T00:00:00Z",
    );
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
