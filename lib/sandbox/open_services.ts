import type { CacheOptions } from "../http/cache.ts";
import { cacheSession, checkedCacheMode, DEFAULT_CACHE_DIR } from "../http/cache_from_env.ts";
import type { SandboxOptions } from "./start_sandbox.ts";
import { type OceanSandbox, startOceanSandbox } from "./ocean/mod.ts";
import { type SandboxSubgraph, serveSubgraph } from "./subgraph/mod.ts";
import { type ExpressionSandbox, startExpressionSandbox } from "./expressions/mod.ts";
import { type ArchiveSandbox, startArchiveSandbox } from "./archive/mod.ts";
import { registerGatewayKey } from "../subgraph/gateway_key.ts";
import { readRecordedServices, writeRecordedServices } from "./_recorded_services.ts";
import { TidepoolError } from "../errors/errors.ts";
import { replayableStart } from "./_recording_warning.ts";
import { SERVICE_VARIABLES, type ServiceName } from "./_service_names.ts";

export { SERVICE_VARIABLES, type ServiceName } from "./_service_names.ts";
/** The sandbox services started for the services not given, each only when it was needed. */
export interface SandboxServices {
  /** The Ocean node, when TIDEPOOL_OCEAN_NODE was not set. */
  readonly ocean?: OceanSandbox;
  /** The subgraph, when TIDEPOOL_SUBGRAPH was not set. */
  readonly subgraph?: SandboxSubgraph;
  /** The expression search, when TIDEPOOL_EXPRESSIONS was not set. */
  readonly expressions?: ExpressionSandbox;
  /** The archive platform, when TIDEPOOL_ARCHIVE was not set. */
  readonly archive?: ArchiveSandbox;
}

/** The services a notebook talks to. */
export interface Services {
  /** The address of each service. */
  readonly urls: { ocean: string; subgraph: string; expressions: string; archive: string };
  /** The archive site to read: `TIDEPOOL_ARCHIVE_ACCOUNT` and `TIDEPOOL_ARCHIVE_DB`, or the sandbox's. */
  readonly archiveSite: { account: string; db: string };
  /** Whether any address came from the environment (a real service). */
  readonly live: boolean;
  /** Which services are real (their address came from the environment). */
  readonly real: Readonly<Record<ServiceName, boolean>>;
  /**
   * The cache to give the clients: `record` for real services, off for the
   * sandbox, unless `TIDEPOOL_CACHE_MODE` says otherwise.
   */
  readonly cache?: CacheOptions;
  /**
   * True in replay mode: no sandbox was started, the addresses are the
   * recording's, and only reads answer (signed requests and writes were
   * never stored).
   */
  readonly replay: boolean;
  /**
   * The sandbox services started here: only those whose variable was not
   * set, so `sandbox.ocean` exists only when the node is the sandbox's.
   * Undefined when every service is real.
   */
  readonly sandbox?: SandboxServices;
  /** Stops the sandbox services, if any. */
  close(): Promise<void>;
}

/**
 * The services for a notebook or a script: the real ones named in
 * `TIDEPOOL_OCEAN_NODE`, `TIDEPOOL_SUBGRAPH`, `TIDEPOOL_EXPRESSIONS` and
 * `TIDEPOOL_ARCHIVE`, used for real; a sandbox is started only for each
 * service not given (lenient by default, as befits a demo). With a real
 * service the cache is on in `record` mode under `.cache/tidepool` (or
 * `TIDEPOOL_CACHE_DIR`), so a second run can set `TIDEPOOL_CACHE_MODE=replay`
 * and run offline; `TIDEPOOL_CACHE_MODE=record` records the sandbox too.
 *
 * A recording keeps the addresses it was made against in `services.json`
 * in the cache folder (cache keys name host and port). A later recording
 * into the same folder starts each sandbox on the port kept there when it
 * is free, so one folder holds the recordings of many notebooks. In replay
 * mode no sandbox starts and no socket opens: the services not named in
 * the environment are the recording's addresses.
 *
 * @param options Sandbox options, for the services that come from it.
 * @returns The addresses, which are real, the cache settings and a close function.
 *
 * @example In a notebook's first cell
 * ```ts ignore (opens the real services, or the sandbox when offline; tests/sandbox runs it)
 * const services = await openServices();
 * const ex = new ExpressionSearch(services.urls.expressions, { cache: services.cache });
 * ```
 */
export async function openServices(options: SandboxOptions = {}): Promise<Services> {
  const env = (name: string) => {
    try {
      return Deno.env.get(name) || undefined;
    } catch {
      return undefined; // no --allow-env: the sandbox it is
    }
  };
  const given = {
    ocean: env(SERVICE_VARIABLES.ocean),
    subgraph: env(SERVICE_VARIABLES.subgraph),
    expressions: env(SERVICE_VARIABLES.expressions),
    archive: env(SERVICE_VARIABLES.archive),
  };
  if (given.subgraph) registerGatewayKey(given.subgraph);
  const cacheMode = checkedCacheMode(env("TIDEPOOL_CACHE_MODE"));
  const cacheDir = env("TIDEPOOL_CACHE_DIR") || DEFAULT_CACHE_DIR;
  if (cacheMode === "replay") return await replayServices(given, cacheDir, env);
  const live = Object.values(given).some((url) => url !== undefined);
  const cache: CacheOptions | undefined = live || cacheMode
    ? cacheSession(cacheMode ?? "record", cacheDir)
    : undefined;
  const recording = cache?.mode === "record" || cache?.mode === "refresh";
  const mode = options.mode ?? "lenient";
  // A recording into a folder that holds one starts each sandbox on the port
  // recorded there (when free), so every notebook recorded into the folder
  // shares one services.json and replays from it.
  const recorded = recording
    ? await readRecordedServices(cacheDir).catch(() => undefined)
    : undefined;
  const port = (name: ServiceName) => {
    const url = recorded?.urls[name];
    return url && new URL(url).hostname === "127.0.0.1" ? Number(new URL(url).port) : undefined;
  };
  const started: {
    ocean?: OceanSandbox;
    subgraph?: SandboxSubgraph;
    expressions?: ExpressionSandbox;
    archive?: ArchiveSandbox;
  } = {};
  const close = async () => {
    await Promise.all(Object.values(started).map((service) => service.close()));
  };
  try {
    // Replaced by the recording in replay: no warning that the recording starts servers.
    await replayableStart(async () => {
      if (!given.ocean) {
        started.ocean = startOceanSandbox({ mode, port: port("ocean"), ...options.ocean });
      }
      if (!given.subgraph) {
        started.subgraph = serveSubgraph({ port: port("subgraph"), ...options.subgraph });
      }
      if (!given.expressions) {
        started.expressions = startExpressionSandbox({
          mode,
          port: port("expressions"),
          ...options.expressions,
        });
      }
      if (!given.archive) {
        started.archive = await startArchiveSandbox({
          mode,
          port: port("archive"),
          ...options.archive,
        });
      }
    });
  } catch (error) {
    await close();
    throw error;
  }
  const urls = {
    ocean: given.ocean ?? started.ocean!.url,
    subgraph: given.subgraph ?? started.subgraph!.endpoint,
    expressions: given.expressions ?? started.expressions!.url,
    archive: given.archive ?? started.archive!.url,
  };
  const archiveSite = given.archive
    ? { account: env("TIDEPOOL_ARCHIVE_ACCOUNT") ?? "", db: env("TIDEPOOL_ARCHIVE_DB") ?? "" }
    : { account: "shinano", db: "letters" };
  if (recording) {
    try {
      await writeRecordedServices(cacheDir, { urls, archiveSite, live });
    } catch (error) {
      await close();
      throw error;
    }
  }
  return {
    urls,
    archiveSite,
    live,
    real: {
      ocean: given.ocean !== undefined,
      subgraph: given.subgraph !== undefined,
      expressions: given.expressions !== undefined,
      archive: given.archive !== undefined,
    },
    cache,
    replay: false,
    sandbox: Object.keys(started).length > 0 ? started : undefined,
    close,
  };
}

/**
 * The services of a replay: the addresses the environment names, the
 * recording's for the rest; nothing is started, so nothing listens.
 */
async function replayServices(
  given: Record<ServiceName, string | undefined>,
  dir: string,
  env: (name: string) => string | undefined,
): Promise<Services> {
  const everyGiven = Object.values(given).every((url) => url !== undefined);
  const recorded = everyGiven ? undefined : await readRecordedServices(dir);
  const url = (name: ServiceName) => {
    const address = given[name] ?? recorded!.urls[name];
    // services.json keeps a key in an address redacted; only the environment has it.
    if (address.includes("[redacted]")) {
      throw new TidepoolError(`Cannot replay: the recorded ${name} address held a key`, {
        details: address,
        detailsLabel: "Recorded",
        hint: `Set ${
          SERVICE_VARIABLES[name]
        } to the address the recording was made with, key included`,
      });
    }
    return address;
  };
  return {
    urls: {
      ocean: url("ocean"),
      subgraph: url("subgraph"),
      expressions: url("expressions"),
      archive: url("archive"),
    },
    archiveSite: given.archive
      ? { account: env("TIDEPOOL_ARCHIVE_ACCOUNT") ?? "", db: env("TIDEPOOL_ARCHIVE_DB") ?? "" }
      : recorded!.archiveSite,
    live: recorded?.live ?? true,
    real: {
      ocean: given.ocean !== undefined,
      subgraph: given.subgraph !== undefined,
      expressions: given.expressions !== undefined,
      archive: given.archive !== undefined,
    },
    cache: cacheSession("replay", dir),
    replay: true,
    close: () => Promise.resolve(),
  };
}
