/**
 * Real server software in the tests: a stock Virtuoso 7 (SPARQL) and the
 * Catmandu OAI-PMH 2.0 provider, both from Debian packages, started on
 * 127.0.0.1 with scratch data through the scripts in
 * `../shared/realservers/` beside the project. A test that needs one calls
 * `startVirtuoso` or `startOaiProvider` and stops it in `finally`; when the
 * packages are missing the start fails naming the one command that installs
 * them (the test task's preflight says the same before any test runs), so
 * these tests are never skipped silently.
 */

import assert from "node:assert/strict";

const scripts = new URL("../../shared/realservers/", import.meta.url).pathname;

/** The one command that installs what the real-server tests need. */
export const INSTALL_REAL_SERVERS =
  "apt-get install -y virtuoso-opensource libdancer-plugin-catmandu-oai-perl libcql-parser-perl libclone-perl curl";

/** A real server started for a test. */
export interface RealServer {
  /** Virtuoso: `http://127.0.0.1:PORT` (the endpoint is `${url}/sparql`); OAI-PMH: the base URL. */
  url: string;
  /** The scratch folder the script made (logs, PID, database). */
  dir: string;
  /** Stops the server and removes its scratch folder. */
  stop(): Promise<void>;
  /** `await using` support: stops the server. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** What is missing for the real-server tests, or an empty list. */
export function missingRealServers(): string[] {
  const missing: string[] = [];
  const ok = (command: string, args: string[]) => {
    try {
      return new Deno.Command(command, { args, stdout: "null", stderr: "null" }).outputSync()
        .success;
    } catch {
      return false;
    }
  };
  if (!ok("sh", ["-c", "command -v virtuoso-t && command -v isql-vt"])) {
    missing.push("virtuoso-opensource (virtuoso-t, isql-vt)");
  }
  if (
    !ok("perl", [
      "-MDancer",
      "-MDancer::Plugin::Catmandu::OAI",
      "-MCQL::Parser",
      "-MClone",
      "-e",
      "1",
    ])
  ) {
    missing.push("libdancer-plugin-catmandu-oai-perl, libcql-parser-perl, libclone-perl");
  }
  if (!ok("sh", ["-c", "command -v curl"])) missing.push("curl");
  try {
    Deno.statSync(`${scripts}virtuoso/start.sh`);
    Deno.statSync(`${scripts}oai/start.sh`);
  } catch {
    missing.push(
      `the start scripts in ${scripts} (the workplace's shared/ folder beside the project)`,
    );
  }
  return missing;
}

async function start(
  script: string,
  args: string[],
  env: Record<string, string>,
  stopScript: string,
): Promise<RealServer> {
  const missing = missingRealServers();
  assert.deepEqual(
    missing,
    [],
    `The real-server tests need: ${missing.join("; ")}. Install them with: ${INSTALL_REAL_SERVERS}`,
  );
  const output = await new Deno.Command("bash", {
    args: [`${scripts}${script}`, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(`${script} failed:\n${text}\n${new TextDecoder().decode(output.stderr)}`);
  }
  const [url, dirLine] = text.split("\n");
  const dir = dirLine.replace(/^dir: /, "");
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await new Deno.Command("bash", {
      args: [`${scripts}${stopScript}`, dir],
      stdout: "null",
      stderr: "null",
    }).output();
  };
  return { url, dir, stop, [Symbol.asyncDispose]: stop };
}

async function countLines(dir: string, name: RegExp, line: RegExp): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !name.test(entry.name)) continue;
    const text = await Deno.readTextFile(`${dir}/${entry.name}`);
    count += text.split("\n").filter((l) => line.test(l)).length;
  }
  return count;
}

/** A Virtuoso started for a test, which logs every HTTP request it answers. */
export interface VirtuosoServer extends RealServer {
  /** How many HTTP requests Virtuoso has logged so far (its access log, one line each). */
  requests(): Promise<number>;
}

/** Options of {@linkcode startVirtuoso}: the start script's variables (README of realservers). */
export interface VirtuosoOptions {
  /** `[SPARQL] ResultSetMaxRows`; Debian's 10000 when not given. */
  resultMaxRows?: number;
  /** `[Parameters] MaxSortedTopRows`; Virtuoso's 10000 when not given. */
  maxSortedTopRows?: number;
  /** `[SPARQL] MaxQueryExecutionTime` in seconds; Debian's 60 when not given. */
  maxExecSeconds?: number;
  /** The graph the data goes into (default `http://example.org/g`). */
  graph?: string;
  /** Paths that answer as the endpoint too (e.g. `/api/demo/dl/books/sparql`). */
  aliases?: string[];
}

/**
 * Starts a stock Virtuoso on 127.0.0.1 with `dataFile` (Turtle, N-Triples…)
 * loaded, at Debian's settings unless `options` change them.
 */
export async function startVirtuoso(
  dataFile?: string,
  options: VirtuosoOptions = {},
): Promise<VirtuosoServer> {
  const env: Record<string, string> = {};
  if (options.resultMaxRows !== undefined) env.RESULT_MAX_ROWS = String(options.resultMaxRows);
  if (options.maxSortedTopRows !== undefined) {
    env.MAX_SORTED_TOP_ROWS = String(options.maxSortedTopRows);
  }
  if (options.maxExecSeconds !== undefined) env.MAX_EXEC = String(options.maxExecSeconds);
  if (options.aliases) env.VIRTUOSO_ALIASES = options.aliases.join(" ");
  const args = dataFile ? [dataFile, ...(options.graph ? [options.graph] : [])] : [];
  const server = await start("virtuoso/start.sh", args, env, "virtuoso/stop.sh");
  return { ...server, requests: () => countLines(server.dir, /^http.*\.log$/, /HTTP\/1/) };
}

/** Options of {@linkcode startOaiProvider}. */
export interface OaiProviderOptions {
  /** Records per page and resumption token (the script's default: 100). */
  pageSize?: number;
  /** Serve from this folder (restart on the same port with changed records). */
  dir?: string;
  /** The port (a free one when not given). */
  port?: number;
}

/**
 * Starts the Catmandu OAI-PMH provider on 127.0.0.1 serving the records of
 * `recordsFile` (the JSON format of the realservers README).
 */
export function startOaiProvider(
  recordsFile: string,
  options: OaiProviderOptions = {},
): Promise<RealServer> {
  const env: Record<string, string> = {};
  if (options.pageSize !== undefined) env.OAI_PAGE_SIZE = String(options.pageSize);
  if (options.dir !== undefined) env.OAI_DIR = options.dir;
  if (options.port !== undefined) env.OAI_PORT = String(options.port);
  return start("oai/start.sh", [recordsFile], env, "oai/stop.sh");
}
