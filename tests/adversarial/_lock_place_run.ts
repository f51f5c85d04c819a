/**
 * Runs `_lock_place_child.ts` as its own `deno run` process, with exactly
 * the variables and `--allow-env` given (and a working folder), and reads
 * back where it took the wallet lock, or its error.
 */

import assert from "node:assert/strict";

const CHILD = new URL("./_lock_place_child.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** The child's JSON answer: the lock's path, or the error. */
export async function takeLock(
  allowEnv: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<{ path?: string; error?: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--frozen",
      `--config=${CONFIG}`,
      "--allow-read",
      "--allow-write",
      allowEnv,
      CHILD,
    ],
    cwd,
    env: { PATH: Deno.env.get("PATH") ?? "", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim();
  assert.ok(text, `the child answered: ${new TextDecoder().decode(output.stderr)}`);
  return JSON.parse(text.split("\n").at(-1)!);
}

/** The parent's DENO_DIR: a child without HOME must find the same cache. */
export async function denoDir(): Promise<string> {
  return Deno.env.get("DENO_DIR") ??
    (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
      .output().then((o) => JSON.parse(new TextDecoder().decode(o.stdout)).denoDir as string));
}
