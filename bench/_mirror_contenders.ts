/**
 * The contenders of the ResourceSync mirror row of bench/network_bench.ts:
 * the loop a user writes (read the resource list, fetch each resource in
 * turn, write its file under the path of its URL) and tidepool's mirror
 * at its default and at `concurrency` 4 and 8. Each writes into a fresh
 * folder and answers the folder's digest, computed here apart from
 * tidepool: SHA-256 over each file's path and SHA-256 (Web Crypto), sorted.
 */

import { XMLParser } from "fast-xml-parser";
import { ResourceSync } from "../lib/archive/resourcesync/mod.ts";
import { NETWORK_SITE } from "./_network_servers.ts";

/** A contender of the network bench. */
export interface NetworkContender {
  /** Its name in the table. */
  name: string;
  /** The most requests it may have in flight; the gate fails a row past it. */
  cap: number;
  /** Runs it against the gate's URL. */
  run(url: string): Promise<{ rows: number; sha256?: string; checkMs?: number }>;
}

/** The digest of a folder: each file's path and SHA-256, sorted, hashed. */
export async function folderDigest(root: string): Promise<string> {
  const lines: string[] = [];
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const relative = `${prefix}${entry.name}`;
      if (entry.isDirectory) await walk(`${folder}/${entry.name}`, `${relative}/`);
      else {lines.push(
          `${relative} ${await sha256(await Deno.readFile(`${folder}/${entry.name}`))}`,
        );}
    }
  };
  await walk(root, "");
  return await sha256(new TextEncoder().encode(lines.sort().join("\n")));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs `work` in a fresh folder, gives back its rows and the folder's digest, removes it. */
async function inFreshFolder(
  work: (dir: string) => Promise<number>,
): Promise<{ rows: number; sha256: string }> {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-mirror-bench-" });
  try {
    const rows = await work(`${dir}/files`);
    return { rows, sha256: await folderDigest(`${dir}/files`) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The loop a user writes: every resource in turn (`get` may wait out refusals). */
async function oneByOne(base: string, dir: string, get = fetch): Promise<number> {
  const parser = new XMLParser();
  const list = parser.parse(
    await (await get(`${base}/${NETWORK_SITE}/api/resourcesync/resourcelist.xml`)).text(),
  );
  const locs = [list.urlset.url].flat().map((url: { loc: string }) => url.loc);
  for (const loc of locs) {
    const bytes = new Uint8Array(await (await get(loc)).arrayBuffer());
    const path = `${dir}${new URL(loc).pathname}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeFile(path, bytes);
  }
  return locs.length;
}

/** tidepool's mirror at a concurrency (undefined: the archive's default, 2). */
async function tidepoolMirror(base: string, dir: string, concurrency?: number): Promise<number> {
  const state = `${dir}.state.json`;
  const rs = new ResourceSync(base, { site: NETWORK_SITE, progress: false, concurrency });
  const run = await rs.mirror({ state, dir });
  return run.written.length;
}

/** The contenders of the mirror row, the loop first (its folder is the reference). */
export const mirrorContenders: NetworkContender[] = [
  {
    name: "one by one: fetch + fast-xml-parser, a file each",
    cap: 1,
    run: (url) => inFreshFolder((dir) => oneByOne(url, dir)),
  },
  ...[undefined, 4, 8].map((concurrency) => ({
    name: `tidepool mirror({ dir }), ${concurrency ? `concurrency ${concurrency}` : "default (2)"}`,
    cap: concurrency ?? 2,
    run: (url: string) => inFreshFolder((dir) => tidepoolMirror(url, dir, concurrency)),
  })),
];

/** The mirror at concurrency 8 with patient retries, for the 503 storm. */
export function stormMirror(url: string): Promise<{ rows: number; sha256: string }> {
  return inFreshFolder(async (dir) => {
    const rs = new ResourceSync(url, {
      site: NETWORK_SITE,
      progress: false,
      concurrency: 8,
      retry: { maxElapsedMs: 600_000 },
    });
    return (await rs.mirror({ state: `${dir}.state.json`, dir })).written.length;
  });
}

/** The loop's folder behind a gate that refuses some requests: each asked again after its pause. */
export function referenceMirror(url: string): Promise<{ rows: number; sha256: string }> {
  const patient = async (input: string | URL | Request): Promise<Response> => {
    for (;;) {
      const response = await fetch(input);
      if (response.status !== 503) return response;
      await response.body?.cancel();
      const seconds = Number(response.headers.get("retry-after") ?? 1);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  };
  return inFreshFolder((dir) => oneByOne(url, dir, patient as typeof fetch));
}
