/**
 * Runs `runCli` in this process as a shell user would run `tidepool`,
 * capturing what it prints, with the environment a test gives; and reads a
 * folder's files whole, for tests that look for what a run changed.
 */

import { runCli } from "../../lib/cli/run_cli.ts";
import type { CommandIo } from "../../lib/cli/_command.ts";

/** What a run printed and its exit code. */
export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line; `stdout` may fail as a closed pipe does. */
export async function capture(
  args: string[],
  options: { env?: Record<string, string>; stdoutClosed?: boolean } = {},
): Promise<Captured> {
  let [stdout, stderr] = ["", ""];
  const io: CommandIo = {
    stdout: (bytes) => {
      if (options.stdoutClosed) return Promise.reject(new Deno.errors.BrokenPipe("Broken pipe"));
      stdout += new TextDecoder().decode(bytes);
      return Promise.resolve();
    },
    stderr: (text) => void (stderr += text),
    stderrIsTerminal: false,
    env: (name) => options.env?.[name],
  };
  return { code: await runCli(args, io), stdout, stderr };
}

/** Every file below a folder (links too, not followed) with its bytes as text, by relative path. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  async function visit(relative: string) {
    for await (const entry of Deno.readDir(`${dir}/${relative}`)) {
      const path = `${relative}${entry.name}`;
      if (entry.isDirectory) await visit(`${path}/`);
      else if (entry.isSymlink) files[path] = `-> ${await Deno.readLink(`${dir}/${path}`)}`;
      else files[path] = await Deno.readTextFile(`${dir}/${path}`);
    }
  }
  await visit("");
  return files;
}
