/**
 * A local Ethereum chain: anvil from the `@foundry-rs/anvil-linux-amd64` npm
 * package, bound to a free loopback port.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";

/** Options of {@linkcode startAnvil}. */
export interface StartAnvilOptions {
  /**
   * How long to wait for anvil to listen; default 60 000 ms. Anvil says so
   * within a second on a quiet machine and a few on a loaded one; the bound
   * only ends a start that failed without exiting.
   */
  readyTimeoutMs?: number;
  /** The chain id anvil reports; default 31337 (anvil's own default). */
  chainId?: number;
}

/** A running anvil: its RPC URL, process id, and how to stop it. */
export interface AnvilChain {
  /** The JSON-RPC endpoint, `http://127.0.0.1:PORT`. */
  readonly rpcUrl: string;
  /** The chain id. */
  readonly chainId: number;
  /** The operating-system process id of anvil. */
  readonly pid: number;
  /** Kills anvil and waits until the process has exited; calling it twice is harmless. */
  close(): Promise<void>;
  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const LISTENING = /Listening on (127\.0\.0\.1:\d+)/;
const ANVIL_PID = /tidepool-anvil-pid (\d+)/;

/**
 * Runs anvil under a watchdog: a shell that starts anvil, says its pid, and
 * kills it as soon as its own stdin (a pipe from this Deno process) reaches
 * end of file. The kernel closes that pipe whenever the Deno process ends:
 * a script that returns without `close()`, `Deno.exit`, an uncaught error,
 * SIGTERM or SIGKILL. Signal listeners could not cover SIGKILL, and they
 * would take over Ctrl-C from the program (and the Jupyter kernel). The
 * background watcher reads the pipe through fd 3, since a non-interactive
 * shell gives background jobs /dev/null as stdin.
 */
const WATCHDOG = [
  "exec 3<&0",
  '"$0" "$@" </dev/null 3<&- &',
  "pid=$!",
  'echo "tidepool-anvil-pid $pid"',
  '( cat <&3 >/dev/null 2>&1; kill -9 "$pid" 2>/dev/null ) >/dev/null 2>&1 &',
  'wait "$pid"',
].join("\n");

/**
 * The path of the anvil binary inside Deno's npm cache. The package ships the
 * binary with its executable bit; when a cache copy lost it (some archive
 * tools drop modes), it is restored here rather than failing later.
 *
 * @returns The absolute path of the anvil executable.
 * @example Where anvil lives
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * console.log(await anvilBinaryPath());
 * ```
 */
export async function anvilBinaryPath(): Promise<string> {
  const manifest = new URL(import.meta.resolve("@foundry-rs/anvil-linux-amd64/package.json"));
  if (manifest.protocol !== "file:") {
    throw new TidepoolError("Cannot find the anvil binary: its npm package is not on disk", {
      hint: "Run `deno install` so the npm package @foundry-rs/anvil-linux-amd64 is cached",
    });
  }
  const path = new URL("./bin/anvil", manifest).pathname;
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info?.isFile) {
    throw new TidepoolError(`Cannot find the anvil binary: ${path} is missing`, {
      hint: "Run `deno install` so the npm package @foundry-rs/anvil-linux-amd64 is cached",
    });
  }
  if (info.mode !== null && (info.mode & 0o111) === 0) await Deno.chmod(path, info.mode | 0o755);
  return path;
}

/**
 * Starts anvil on 127.0.0.1 with a port the system chooses, and resolves once
 * it listens. Anvil's own output (which lists its dev keys) is read only for
 * the listening line and never forwarded. Always `close()` it in `finally`,
 * or use {@linkcode withAnvil}; a script that forgets still ends, and anvil
 * stops with it (also on SIGTERM or SIGKILL), through a watchdog shell.
 *
 * @param options Ready timeout and chain id.
 * @returns The running chain.
 * @example Start and stop a chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const chain = await startAnvil();
 * try {
 *   console.log(chain.rpcUrl);
 * } finally {
 *   await chain.close();
 * }
 * ```
 */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilChain> {
  const chainId = options.chainId ?? 31337;
  const binary = await anvilBinaryPath();
  const child = new Deno.Command("/bin/sh", {
    args: [
      "-c",
      WATCHDOG,
      binary,
      ...["--host", "127.0.0.1", "--port", "0", "--chain-id", String(chainId)],
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A script that never calls close() still ends; the watchdog then stops anvil.
  child.unref();
  const lifeline = child.stdin.getWriter();
  let anvilPid: number | undefined;
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const close = async () => {
    if (!exited) {
      try {
        if (anvilPid !== undefined) Deno.kill(anvilPid, "SIGKILL");
      } catch {
        // Already gone between the check and the kill.
      }
      // End of file for the watchdog: it kills anvil (if the pid was never read) and exits.
      await lifeline.close().catch(() => {});
    }
    // Waiting for the exit keeps the event loop (and so the caller) alive.
    child.ref();
    await status;
  };
  const stderrText = new Response(child.stderr).text();
  try {
    const ready = await readListeningAddress(child.stdout, status, options.readyTimeoutMs);
    anvilPid = ready.pid;
    return {
      rpcUrl: `http://${ready.address}`,
      chainId,
      pid: ready.pid,
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await close();
    const said = (await stderrText.catch(() => "")).trim();
    throw new TidepoolError("Cannot start anvil: it did not report a listening address", {
      details: said || undefined,
      detailsLabel: "anvil said",
      hint: "Check that the binary runs on this machine (linux x64) and try again",
      cause: error,
    });
  }
}

/**
 * Runs `body` with a fresh anvil and kills anvil afterwards, whether `body`
 * returned or threw.
 *
 * @param body What to do with the running chain.
 * @param options Options of {@linkcode startAnvil}.
 * @returns What `body` returned.
 * @example Read the block number of a fresh chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const n = await withAnvil(async (chain) => chain.rpcUrl);
 * ```
 */
export async function withAnvil<T>(
  body: (chain: AnvilChain) => Promise<T>,
  options: StartAnvilOptions = {},
): Promise<T> {
  const chain = await startAnvil(options);
  try {
    return await body(chain);
  } finally {
    await chain.close();
  }
}

/** Reads the watchdog's pid line and anvil's listening line; the rest is drained and dropped. */
async function readListeningAddress(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
  timeoutMs = 60_000,
): Promise<{ address: string; pid: number }> {
  const lines = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No listening line after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const exit = status.then((s) => {
    throw new Error(`anvil exited with code ${s.code}`);
  });
  let pid: number | undefined;
  const find = (async () => {
    while (true) {
      const { value, done } = await lines.read();
      if (done) throw new Error("anvil closed its output");
      // Keep only the tail: the banner holds dev keys, which need not stay in memory.
      seen = (seen + value).slice(-200);
      pid ??= Number(ANVIL_PID.exec(seen)?.[1]) || undefined;
      const match = LISTENING.exec(seen);
      if (match && pid !== undefined) return { address: match[1], pid };
    }
  })();
  try {
    return await Promise.race([find, timeout, exit]);
  } finally {
    clearTimeout(timer);
    // Drain the rest so anvil never blocks on a full pipe.
    (async () => {
      try {
        while (!(await lines.read()).done) { /* dropped */ }
      } catch { /* closed with the process */ }
    })();
    exit.catch(() => {});
    find.catch(() => {});
  }
}
