/**
 * A child process watched from outside: its peak resident memory read from
 * /proc while it runs, and killed at once past a memory or time bound (a
 * runaway read would take the machine's memory), so a test judges what the
 * child did, not what it says.
 */

/** What a watched child did. */
export interface WatchedRun {
  code: number;
  out: string;
  maxRssKb: number;
}

/** The peak resident memory of a running process so far, in KB (`VmHWM`), or 0 once it is gone. */
async function peakKb(pid: number): Promise<number> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    return Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Runs `deno <args>` as a child, reading its peak memory while it runs, and
 * kills it past `maxRssKb` or `timeLimitMs`.
 */
export async function watchedDeno(
  args: string[],
  bounds: {
    maxRssKb: number;
    timeLimitMs: number;
    env?: Record<string, string>;
    /** Feed the child an endless standard input (zero bytes) until it ends. */
    endlessStdin?: boolean;
  },
): Promise<WatchedRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    ...(bounds.env ? { env: bounds.env, clearEnv: true } : {}),
    stdin: bounds.endlessStdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (bounds.endlessStdin) {
    const writer = child.stdin.getWriter();
    const zeros = new Uint8Array(64 * 1024);
    // Until the child stops reading (it ends, or closes its input): then the write fails.
    (async () => {
      try {
        while (true) await writer.write(zeros);
      } catch {
        // the child is gone
      }
    })();
  }
  let maxRssKb = 0;
  let ended = false;
  const output = child.output().finally(() => ended = true);
  const deadline = Date.now() + bounds.timeLimitMs;
  // A bound, not a measurement: the test fails on a child that never ends or grows past the cap.
  while (!ended) {
    maxRssKb = Math.max(maxRssKb, await peakKb(child.pid));
    if (maxRssKb >= bounds.maxRssKb || Date.now() > deadline) {
      child.kill("SIGKILL");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { code, stdout, stderr } = await output;
  const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return { code, out, maxRssKb };
}
