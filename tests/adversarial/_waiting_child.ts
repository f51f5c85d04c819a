/**
 * Children that race: each `deno run` child loads tidepool, says `ready`,
 * and waits for a line on its standard input, so that several can be let
 * go at the same moment; then it prints one line of JSON. The parent side
 * starts and reads them; the child side waits for the word.
 */

import { childEnvironment } from "../_child_runs.ts";

const root = new URL("../../", import.meta.url).pathname;

/** One waiting child: the process and a reader of its output lines. */
export interface WaitingChild {
  process: Deno.ChildProcess;
  nextLine(): Promise<string>;
}

/**
 * Starts `script` as a child with only `env` (and the test run's basics);
 * the signal ends it whatever happens.
 *
 * @param script The child's path.
 * @param env Its environment.
 * @param signal Ends it.
 * @returns The child.
 */
export function startWaitingChild(
  script: string,
  env: Record<string, string>,
  signal: AbortSignal,
): WaitingChild {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--frozen", script],
    cwd: root,
    env: childEnvironment(env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).spawn();
  const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async () => {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) return buffered;
      buffered += value;
    }
    const [line, ...rest] = buffered.split("\n");
    buffered = rest.join("\n");
    return line;
  };
  return { process, nextLine };
}

/** In the child: says `ready` and waits for the parent's line. */
export async function readyThenWait(): Promise<void> {
  console.log("ready");
  await Deno.stdin.readable.getReader().read();
}
