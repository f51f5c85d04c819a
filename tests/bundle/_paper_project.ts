/**
 * A paper's project as an author leaves it, for the reproduce tests: a
 * folder with tidepool's imports in its `deno.json` and its lock, a script
 * (or notebook), an empty recording folder, and the bundle the script wrote
 * when the author ran it. Also the reviewer's side: `deno task reproduce`
 * run as a child with exactly the environment given.
 */

import assert from "node:assert/strict";
import { childEnvironment } from "../_child_runs.ts";

const root = new URL("../../", import.meta.url);

/** tidepool's `mod.ts`, as a project outside the repository imports it by path. */
export const TIDEPOOL_MOD = new URL("mod.ts", root).href;

/** Writes the project's deno.json, lock and empty recording folder into `dir`. */
export async function projectFolder(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/.cache/tidepool`, { recursive: true });
  const { imports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ imports }));
  await Deno.copyFile(new URL("deno.lock", root), `${dir}/deno.lock`);
}

/** Runs the author's script in its project, recording, as `deno run -A` does; fails unless it exits 0. */
export async function runAuthor(dir: string, script: string, args: string[] = []): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: dir,
    env: childEnvironment({
      TIDEPOOL_CACHE_MODE: "record",
      TIDEPOOL_CACHE_DIR: `${dir}/.cache/tidepool`,
    }),
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
}

/** What `deno task reproduce` did: its exit code and everything it printed. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `deno task reproduce <args>` from tidepool's root with exactly
 * `environment` (the reviewer's), plus the Deno cache folder it needs.
 */
export function reproduceCommand(
  args: string[],
  environment: Record<string, string> = childEnvironment(),
): Promise<CommandRun> {
  return taskCommand("reproduce", args, environment);
}

/**
 * Runs `deno task <task> <args>` from tidepool's root, as a reviewer with a
 * checkout types it, with exactly `environment` plus the Deno cache folder.
 */
export async function taskCommand(
  task: string,
  args: string[],
  environment: Record<string, string> = childEnvironment(),
): Promise<CommandRun> {
  const denoDir = await denoDirectory();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", task, ...args],
    cwd: root.pathname,
    env: { DENO_DIR: denoDir, ...environment },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

let cached: string | undefined;

/** Deno's cache folder here, so a child with another HOME still finds its packages. */
export async function denoDirectory(): Promise<string> {
  if (cached) return cached;
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return cached = JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/** Every file below a folder, with its bytes, to compare before and after. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isSymlink) files.set(path, `-> ${await Deno.readLink(path)}`);
      else files.set(path, new TextDecoder().decode(await Deno.readFile(path)));
    }
  };
  await walk(dir);
  return files;
}
