/**
 * `verify` hashes a bundle's files streaming: a regular file of 1.5 GiB
 * whose size the crate records (so it is hashed, not refused by size) costs
 * a bounded amount of memory, not its size. `verify.ts` runs as a child
 * whose peak memory is read from /proc while it runs (killed past the
 * bound); the file is sparse, so the test takes no disk. The digest of a
 * file of several pieces is checked against an independent SHA-256.
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";
import { hashKnownSize } from "../../lib/bundle/_bundle_file.ts";
import { watchedDeno } from "./_bounded_child.ts";

const VERIFY = new URL("../../verify.ts", import.meta.url).pathname;
const BIG = 1536 * 1024 * 1024;
/** The most resident memory allowed, in KB: far below the file's size. */
const MAX_RSS_KB = 600 * 1024;

async function hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("verify hashes a 1.5 GiB file of a bundle within a bounded memory", async () => {
  const root = await Deno.makeTempDir({ prefix: "tidepool-big-bundle-" });
  try {
    const bundle = `${root}/bundle`;
    await saveBundle(bundle, {
      draft: true,
      tables: { counts: aq.table({ emotion: ["喜", "怒"], n: [3, 1] }) },
    });
    // A sparse file: its size on the file system, none of it on the disk.
    const file = await Deno.open(`${bundle}/big.bin`, { write: true, createNew: true });
    await file.truncate(BIG);
    file.close();
    const cratePath = `${bundle}/ro-crate-metadata.json`;
    const crate = JSON.parse(await Deno.readTextFile(cratePath));
    crate["@graph"].find((entity: { "@id": string }) => entity["@id"] === "./").hasPart.push({
      "@id": "big.bin",
    });
    crate["@graph"].push({ "@id": "big.bin", "@type": "File", contentSize: String(BIG) });
    await Deno.writeTextFile(cratePath, JSON.stringify(crate));

    const run = await watchedDeno(
      ["run", "--v8-flags=--max-old-space-size=128", "--allow-read", "--frozen", VERIFY, bundle],
      { maxRssKb: MAX_RSS_KB, timeLimitMs: 300_000 },
    );
    assert.ok(
      run.maxRssKb < MAX_RSS_KB,
      `verify held ${Math.round(run.maxRssKb / 1024)} MB for a ${BIG / 2 ** 20} MB file`,
    );
    assert.ok(run.code === 0 || run.code === 1, `verify ended by itself (exit ${run.code})`);
    assert.doesNotMatch(run.out, /Uncaught|error: /, run.out);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the streamed digest of a file of several pieces is its SHA-256, and a size it lacks is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 12345);
    for (let i = 0; i < bytes.length; i += 65536) {
      crypto.getRandomValues(bytes.subarray(i, Math.min(i + 65536, bytes.length)));
    }
    await Deno.writeFile(`${dir}/data.bin`, bytes);
    const hashed = await hashKnownSize(`${dir}/data.bin`, bytes.length);
    assert.deepEqual(hashed, { bytes: bytes.length, sha256: await hex(bytes) });
    await Deno.writeFile(`${dir}/empty.bin`, new Uint8Array());
    assert.deepEqual(await hashKnownSize(`${dir}/empty.bin`, 0), {
      bytes: 0,
      sha256: await hex(new Uint8Array()),
    });
    await assert.rejects(hashKnownSize(`${dir}/data.bin`, bytes.length - 1), /grew past/);
    await assert.rejects(hashKnownSize(`${dir}/data.bin`, bytes.length + 1), /shrank/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
