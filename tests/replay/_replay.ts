/**
 * Shared steps of the end-to-end replay tests: the environment of a
 * recording or a replay run, and a cached answer edited on disk to prove
 * that a replay which differs from its recording is caught.
 */

import { childEnvironment } from "../_child_runs.ts";

/** The environment of a child run: no TIDEPOOL_* service from outside, the given cache mode. */
export function cacheEnvironment(
  mode: "record" | "replay",
  dir: string,
): Record<string, string> {
  return childEnvironment({ TIDEPOOL_CACHE_MODE: mode, TIDEPOOL_CACHE_DIR: dir });
}

/**
 * Edits the body of the one recorded answer whose URL matches, in place.
 *
 * @returns The URL of the edited answer.
 */
export async function editRecordedBody(
  dir: string,
  url: RegExp,
  edit: (body: string) => string,
): Promise<string> {
  const matches: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".json") && entry.name !== "services.json") {
        const file = JSON.parse(await Deno.readTextFile(path));
        if (url.test(file.url)) matches.push(path);
      }
    }
  };
  await walk(dir);
  if (matches.length !== 1) throw new Error(`${matches.length} recorded answers match ${url}`);
  const file = JSON.parse(await Deno.readTextFile(matches[0]));
  const bytes = Uint8Array.from(atob(file.bodyBase64), (c) => c.charCodeAt(0));
  const edited = new TextEncoder().encode(edit(new TextDecoder().decode(bytes)));
  file.bodyBase64 = btoa(String.fromCharCode(...edited));
  await Deno.writeTextFile(matches[0], JSON.stringify(file));
  return file.url;
}
