/**
 * Runs `tidepool` as a user runs it: `cli.ts` in a child process, in a
 * folder of the test's, with only the environment the test gives, its
 * standard output and error piped (so neither is a terminal), bounded in time.
 */

import { childEnvironment } from "../_child_runs.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What a run of the command left. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runTidepool}. */
export interface RunOptions {
  /** The folder it runs in. */
  cwd: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Deno permissions; default -A. */
  permissions?: string[];
  /** The longest the run may take. */
  timeoutMs?: number;
}

/** Runs `tidepool <args>`; the child is killed if it outlives the time limit. */
export async function runTidepool(args: string[], options: RunOptions): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...(options.permissions ?? ["-A"]),
      "--frozen",
      `--config=${ROOT}deno.json`,
      `${ROOT}cli.ts`,
      ...args,
    ],
    cwd: options.cwd,
    env: childEnvironment({ NO_COLOR: "1", ...options.env }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  }).spawn();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** Starts `tidepool <args>` in a folder, its output piped, for a test that watches it run; the caller ends it. */
export function spawnTidepool(args: string[], cwd?: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", `--config=${ROOT}deno.json`, `${ROOT}cli.ts`, ...args],
    cwd,
    env: childEnvironment({ NO_COLOR: "1" }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
}

/** A loopback address where nothing listens: a port bound, then closed. */
export function closedPort(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** Every file below a folder, as paths. */
export async function filesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await filesBelow(path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}

/** The lines of CSV text, without the last empty one. */
export function csvLines(text: string): string[] {
  return text.split("\n").filter((line, i, all) => !(line === "" && i === all.length - 1));
}
