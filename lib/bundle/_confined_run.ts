/**
 * Runs a project's module the way `reproduce` must run code it does not
 * trust: in a child Deno with explicit permissions (read the scratch copy
 * and the npm cache, write the scratch copy, no network, no subprocess, no
 * FFI, no system information, nothing downloaded: `--cached-only`) and an
 * environment holding only what tidepool sets. What Deno itself fetches and
 * writes is pinned in `_confined_deno.ts`. Deno loads a module's static
 * imports without asking its permissions, so the module graph is read first
 * and a local import outside the scratch copy is refused before anything
 * runs.
 *
 * @module
 */

import { quotedOutput } from "../errors/terminal_text.ts";
import { basename, dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { TidepoolError } from "../errors/errors.ts";
import { isInside } from "./_project_copy.ts";
import { denoEnv, type DenoSetup, pinnedFlags } from "./_confined_deno.ts";

/** What a confined run may touch. */
export interface Confinement {
  /** The folders the run may read and write: the copies of the project and the recording. */
  readonly folders: readonly string[];
  /** The run's temporary folder (`TMPDIR`), written too. */
  readonly tmp: string;
  /** How Deno is set up: its own DENO_DIR, the lockfile, the registry. */
  readonly deno: DenoSetup;
  /** Files of tidepool itself a module may import from outside the copy (its own checkout). */
  readonly tidepoolFiles: readonly string[];
  /** The environment of the run, beyond Deno's and a temporary folder in the copy. */
  readonly env: Readonly<Record<string, string>>;
}

/** The whole environment of the child: nothing of the reviewer's. */
function childEnv(confinement: Confinement): Record<string, string> {
  return {
    ...confinement.env,
    ...denoEnv(confinement.deno),
    // Temporary files (Deno.makeTempDir) land inside the copy, one place it may write.
    TMPDIR: confinement.tmp,
  };
}

/** The permission flags of the run: exactly what the module description above says. */
export function permissionFlags(confinement: Confinement): string[] {
  const writable = [...confinement.folders, confinement.tmp];
  return [
    `--allow-read=${[...writable, ...confinement.deno.npmCaches].join(",")}`,
    `--allow-write=${writable.join(",")}`,
    // The environment is cleared: all it holds is what tidepool set.
    "--allow-env",
    "--deny-net",
    "--deny-run",
    "--deny-ffi",
    "--deny-sys",
    "--no-prompt",
    // Deno downloads packages without asking --allow-net: the run only reads what was fetched.
    "--cached-only",
    ...pinnedFlags(confinement.deno),
  ];
}

/**
 * Refuses a module whose static imports reach a local file outside the
 * scratch copy (Deno reads those without asking the run's permissions):
 * only files of the copy and of tidepool itself may be imported.
 *
 * @param module The module to run, inside the copy.
 * @param confinement What the run may touch.
 */
export async function checkModuleGraph(module: string, confinement: Confinement): Promise<void> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", ...pinnedFlags(confinement.deno), module],
    cwd: dirname(module),
    env: childEnv(confinement),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new TidepoolError(
      `Cannot reproduce: Deno cannot read the imports of ${basename(module)}`,
      {
        details: new TextDecoder().decode(stderr).trim().slice(-1500),
        detailsLabel: "Deno said",
        hint: "Reproduce with the notebook or script that wrote this bundle, in its project",
      },
    );
  }
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    modules?: { specifier?: string }[];
  };
  const outside = (graph.modules ?? []).map((entry) => entry.specifier ?? "")
    .filter((specifier) => specifier.startsWith("file:"))
    .map((specifier) => fromFileUrl(specifier))
    .filter((path) =>
      !confinement.folders.some((folder) => isInside(path, folder)) &&
      !confinement.tidepoolFiles.some((allowed) => isInside(path, allowed))
    );
  if (outside.length > 0) {
    throw new TidepoolError(
      `Cannot reproduce: ${basename(module)} imports files outside its project: ${
        outside.slice(0, 3).join(", ")
      }${outside.length > 3 ? ", ..." : ""}`,
      {
        hint:
          "The re-run may read only its project's copy: keep every file the code imports inside the project",
      },
    );
  }
}

/**
 * Runs a module confined; fails with the end of its log unless it exits 0.
 *
 * @param module The module, inside the copy.
 * @param args Its arguments.
 * @param confinement What the run may touch.
 * @param timeoutMs The longest it may run.
 */
export async function runConfined(
  module: string,
  args: readonly string[],
  confinement: Confinement,
  timeoutMs: number,
): Promise<void> {
  await Deno.mkdir(confinement.tmp, { recursive: true });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissionFlags(confinement), module, ...args],
    cwd: dirname(module),
    env: childEnv(confinement),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // SIGKILL at the time limit: a run may listen for SIGTERM and go on.
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // it has ended
    }
  }, timeoutMs);
  // The run's output is the author's: only its end is kept, however much it prints.
  const [stdout, stderr, { code }] = await Promise.all([
    lastBytes(child.stdout),
    lastBytes(child.stderr),
    child.status,
  ]).finally(() => clearTimeout(timer));
  if (code !== 0) {
    const log = new TextDecoder().decode(stderr).trim() || new TextDecoder().decode(stdout).trim();
    // Deno's own report of the failure, when it made one, else the end of the log.
    const at = log.lastIndexOf("error: ");
    throw new TidepoolError(`The re-run of ${basename(module)} failed (exit code ${code})`, {
      // The re-run's own words, each line marked as its and made inert.
      details: quotedOutput(at >= 0 ? log.slice(at) : log.slice(-400), "re-run| "),
      detailsLabel: "It said",
      hint: confinedRunHint(log),
    });
  }
}

/** A listen on the loopback, as Deno refuses it: the run started a local server. */
const LOCAL_LISTEN =
  /Requires net access to "(127\.\d+\.\d+\.\d+|localhost|0\.0\.0\.0|\[::1?\]):\d+"/;

/**
 * What to do after a confined run failed, from what it printed: a local
 * server (the sandbox started with `startSandbox()`) has its own way out,
 * `openServices()`, which replays the sandbox's answers without a socket.
 *
 * @param log The end of the run's output.
 * @returns The hint.
 */
export function confinedRunHint(log: string): string {
  if (LOCAL_LISTEN.test(log)) {
    return "The code starts a local server (startSandbox(), a sandbox's start function or Deno.serve), and the re-run may open no socket. " +
      "Start the sandbox with openServices() from @tidepool/tidepool/sandbox instead: in replay it answers from the recording without a server. Then record again and save the bundle again";
  }
  if (/NotCapable|Requires \w+ access/.test(log)) {
    return "The re-run is confined: it may read and write only its scratch copy of the project, with no network, subprocess, FFI or environment. Code that needs more cannot be reproduced here";
  }
  return "A CacheMissError means the recording lacks a request the code now sends: run it again with TIDEPOOL_CACHE_MODE=record, or use the code as it was when recorded";
}

/** The most bytes of a run's output kept: its end, which says why it failed. */
const KEPT_OUTPUT = 64 * 1024;

/** Reads a stream to its end, keeping only its last {@linkcode KEPT_OUTPUT} bytes. */
async function lastBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  let kept = new Uint8Array(0);
  for await (const chunk of stream) {
    const joined = new Uint8Array(Math.min(kept.length + chunk.length, KEPT_OUTPUT));
    const tail = chunk.subarray(Math.max(0, chunk.length - joined.length));
    const head = kept.subarray(kept.length - (joined.length - tail.length));
    joined.set(head, 0);
    joined.set(tail, head.length);
    kept = joined;
  }
  return kept;
}
