/**
 * The "Publishing with a paper" commands of docs/publishing.md, run as written: the
 * shell block after the marker runs in bash in a scratch copy of the
 * repository (so nothing here is written), and must end with exit code 0;
 * the reviewer's two commands must say that all holds and that the demo
 * reproduced.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnvironment } from "../_child_runs.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MARKER = "<!-- run by tests/packaging/readme_publishing_test.ts -->";

/** The repository's files, without what runs leave behind. */
async function copyRepository(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if ([".git", "out", ".cache", "node_modules"].includes(entry.name)) continue;
    const path = join(from, entry.name);
    if (entry.isDirectory) await copyRepository(path, join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(path, join(to, entry.name));
  }
}

Deno.test("README: the author's and the reviewer's commands run as written", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "docs/publishing.md"));
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, "docs/publishing.md marks the block it runs");
  const block = readme.slice(at).match(/```sh\n([\s\S]*?)```/)?.[1];
  assert.ok(block, "a sh block follows the marker");
  const copy = await Deno.makeTempDir({ prefix: "tidepool-readme-" });
  try {
    await copyRepository(ROOT, copy);
    const { code, stdout, stderr } = await new Deno.Command("bash", {
      args: ["-euo", "pipefail", "-c", block],
      cwd: copy,
      env: childEnvironment(),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const printed = new TextDecoder().decode(stdout);
    assert.equal(
      code,
      0,
      `${printed.slice(-3000)}\n${new TextDecoder().decode(stderr).slice(-3000)}`,
    );
    assert.match(printed, /out\/bundle: all holds: \d+ files and 40 table files/);
    assert.match(
      printed,
      /out\/bundle: reproduced: 18 of 20 tables have the digests the bundle records/,
    );
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
});
