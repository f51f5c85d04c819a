/**
 * saveResource in its own process, run under a file-size limit (SIGXFSZ
 * ignored, so a write past it fails with EFBIG as on a full disk):
 * `deno run _save_resource_child.ts <root> <bytes> [chunk]`.
 * Prints the error the save ended with.
 */
import { saveResource } from "../../lib/archive/resourcesync/_mirror_download.ts";
import type { MirrorJournal } from "../../lib/archive/resourcesync/_mirror_journal.ts";

const [root, size, chunk = size] = Deno.args;
const journal = {
  claim: () => Promise.resolve(),
  withdraw: () => Promise.resolve(),
  digestsAt: () => new Set<string>(),
} as unknown as MirrorJournal;
const total = Number(size);
const step = Number(chunk);
const parts: Uint8Array[] = [];
for (let at = 0; at < total; at += step) {
  parts.push(new Uint8Array(Math.min(step, total - at)).fill(7));
}
const entry = {
  loc: "http://127.0.0.1/r.bin",
  lastmod: null,
  change: null,
  datetime: null,
  html: null,
  length: total,
  type: null,
  hash: null,
  capability: null,
  from: null,
  until: null,
};
try {
  await saveResource(ReadableStream.from(parts), {
    root,
    path: "r.bin",
    entry,
    journal,
    version: "v",
  });
  console.log("saved");
} catch (error) {
  console.log(`failed: ${error instanceof Error ? `${error.name}: ${error.message}` : error}`);
}
