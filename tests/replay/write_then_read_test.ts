/**
 * The cache tells the truth while recording: a read after the session's own
 * successful write goes to the server (it is another request than the same
 * read before the write), and a replay of the session that wrote, with the
 * server gone, gives every read the answer it had.
 */

import assert from "node:assert/strict";
import { Archive } from "../../lib/archive/mod.ts";
import { SANDBOX_KEYS, startArchiveSandbox } from "../../lib/sandbox/archive/mod.ts";
import type { CacheMode } from "../../lib/http/cache.ts";

/** Create, read, update, read, delete, read: what each read saw. */
async function session(url: string, dir: string, mode: CacheMode): Promise<unknown[]> {
  const archive = new Archive(url, {
    account: "shinano",
    db: "letters",
    apiKey: SANDBOX_KEYS.shinanoWrite,
    progress: false,
    retry: false,
    cache: { dir, mode },
  });
  const seen: unknown[] = [];
  await archive.createResource({ slug: "letter-replay-1", title: "初稿" });
  seen.push((await archive.resource("letter-replay-1")).title);
  await archive.updateResource("letter-replay-1", { title: "改稿" });
  seen.push((await archive.resource("letter-replay-1")).title);
  await archive.updateResource("letter-replay-1", { title: "決定稿" });
  seen.push((await archive.resource("letter-replay-1")).title);
  return seen;
}

Deno.test("record, write, read shows the new value; the replay of that session gives the same", async () => {
  const dir = await Deno.makeTempDir();
  const sandbox = await startArchiveSandbox();
  let url = sandbox.url;
  try {
    const recorded = await session(url, dir, "record");
    assert.deepEqual(recorded, ["初稿", "改稿", "決定稿"]);
  } finally {
    await sandbox.close();
  }
  try {
    const replayed = await session(url, dir, "replay");
    assert.deepEqual(replayed, ["初稿", "改稿", "決定稿"]);
  } finally {
    url = "";
    await Deno.remove(dir, { recursive: true });
  }
});
