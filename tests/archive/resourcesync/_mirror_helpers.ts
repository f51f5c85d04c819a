/**
 * Helpers of the mirror tests: a folder's files read back and hashed apart
 * from tidepool, and a source's contents fetched apart from tidepool.
 */

import { seedOaiRecords } from "../../../lib/sandbox/archive/oai/mod.ts";
import { startResourceSyncSandbox } from "../../../lib/sandbox/archive/resourcesync/mod.ts";

/** Every file below a folder, by its path relative to it, with its SHA-256 (Web Crypto). */
export async function filesIn(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(path, relative);
      else files.set(relative, await sha256(await Deno.readFile(path)));
    }
  };
  await walk(root, "");
  return files;
}

/** SHA-256 by Web Crypto, lowercase hex: not the hash tidepool computes with. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * What the source serves: each record's data URI path (below the host) and
 * the SHA-256 of the bytes a plain `fetch` gets there (503s asked again).
 */
export async function sourceContents(
  url: string,
  site: string,
  slugs: readonly string[],
): Promise<Map<string, string>> {
  const contents = new Map<string, string>();
  for (const slug of slugs) {
    const path = `${site}/data/${encodeURIComponent(slug)}`;
    let response: Response;
    // A storm gate refuses some of these too: asked again until answered.
    for (let tries = 0;; tries++) {
      response = await fetch(`${url}/${path}`, { headers: { accept: "application/ld+json" } });
      if (response.status !== 503 || tries === 10) break;
      await response.body?.cancel();
    }
    contents.set(path, await sha256(new Uint8Array(await response.arrayBuffer())));
  }
  return contents;
}

/** A ResourceSync sandbox of `count` records whose lists give lengths and both digests. */
export function mirrorSandbox(count: number, seed = 5) {
  const records = seedOaiRecords({ count, seed });
  const sandbox = startResourceSyncSandbox({
    sites: { "acme/letters": records },
    metadata: ["length", "md5", "sha-256"],
  });
  return { sandbox, records, slugs: records.filter((r) => !r.deleted).map((r) => r.slug) };
}
