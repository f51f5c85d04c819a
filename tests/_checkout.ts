/**
 * A copy of this checkout as a user's clone holds it (the files git knows,
 * tracked or new and not ignored), for tests that build a project around
 * tidepool the way docs/your-project.md tells a user to.
 */

import assert from "node:assert/strict";

const repository = new URL("../", import.meta.url).pathname;

/** Runs a command synchronously, its output as text. */
export function run(command: string, args: string[], cwd: string) {
  const { code, stdout, stderr } = new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).outputSync();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** Copies the files git knows (tracked, or new and not ignored): what a checkout holds. */
export async function copyCheckout(to: string): Promise<void> {
  const listed = run(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    repository,
  );
  assert.equal(listed.code, 0, listed.stderr);
  for (const path of listed.stdout.split("\0").filter(Boolean)) {
    const target = `${to}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    try {
      await Deno.copyFile(`${repository}${path}`, target);
    } catch (error) {
      // A file deleted in the working tree but still tracked is not part of the checkout.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}
