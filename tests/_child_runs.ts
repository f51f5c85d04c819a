/**
 * The demo and the notebooks run as a user runs them, in a child process:
 * one way to build the child's environment, start the demo, check for
 * Jupyter and execute a notebook, shared by the demo, notebook, replay and
 * real-service tests.
 */

import assert from "node:assert/strict";
import { executeNotebookArgs } from "../lib/bundle/_execute_notebook_args.ts";

const root = new URL("../", import.meta.url).pathname;

/**
 * The environment of a child run: this process's, without any TIDEPOOL_*
 * service or setting and without OCEAN_PRIVATE_KEY (so only what the test
 * gives reaches the child), plus `extra`.
 */
export function childEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const environment = Deno.env.toObject();
  for (const name of Object.keys(environment)) {
    if (name.startsWith("TIDEPOOL_") || name === "OCEAN_PRIVATE_KEY") delete environment[name];
  }
  return { ...environment, ...extra };
}

/**
 * Runs `demo.ts` into `out` with exactly `environment`; fails with its stderr
 * unless it exits 0.
 *
 * @returns What the demo printed.
 */
export async function runDemo(
  out: string,
  environment: Record<string, string>,
  permissions: string[] = ["-A"],
): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, "--frozen", `${root}demo.ts`, out],
    cwd: root,
    env: environment,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, `demo.ts failed:\n${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/** A code cell of a notebook document, not yet run. */
export function codeCell(source: string | string[]) {
  return { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source };
}

/** Whether `jupyter nbconvert` runs here. */
export function jupyterAvailable(): boolean {
  try {
    return new Deno.Command("jupyter", {
      args: ["nbconvert", "--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync().code === 0;
  } catch {
    return false;
  }
}

/**
 * Executes a notebook in the Deno kernel (`jupyter nbconvert --execute`)
 * from the notebooks folder, where tidepool's deno.json is found, with
 * exactly `environment`; fails with the end of its log unless it succeeds.
 *
 * @returns The executed notebook, parsed from `outDir`.
 */
export async function executeNotebook<Notebook>(
  path: string,
  options: { outDir: string; environment: Record<string, string>; timeoutSeconds: number },
): Promise<Notebook> {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const { code, stderr } = await new Deno.Command("jupyter", {
    args: [
      "nbconvert",
      ...executeNotebookArgs(options.timeoutSeconds),
      "--output-dir",
      options.outDir,
      path,
    ],
    cwd: `${root}notebooks`,
    env: options.environment,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(stderr);
  assert.equal(code, 0, `nbconvert failed for ${name}:\n${log.slice(-3000)}`);
  return JSON.parse(await Deno.readTextFile(`${options.outDir}/${name}`));
}

/**
 * Runs a server script in a child process (so it answers while this process
 * is busy), hands its first printed line (its address) to `body`, and ends
 * the child by closing its stdin, however `body` ends.
 */
export async function withChildServer<T>(
  script: URL,
  body: (firstLine: string) => Promise<T>,
): Promise<T> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", script.pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`${script.pathname} ended before it printed its address`);
      text += value;
    }
    lines.releaseLock();
    return await body(text.slice(0, text.indexOf("\n")).trim());
  } finally {
    await child.stdin.close();
    await child.status;
  }
}
