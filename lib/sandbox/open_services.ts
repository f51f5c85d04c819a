import type { CacheOptions } from "../http/cache.ts";
import { type Sandbox, type SandboxOptions, startSandbox } from "./start_sandbox.ts";

/** The environment variables that point the notebooks and the demo at real services. */
export const SERVICE_VARIABLES = {
  ocean: "TIDEPOOL_OCEAN_NODE",
  subgraph: "TIDEPOOL_SUBGRAPH",
  archive: "TIDEPOOL_ARCHIVE",
  expressions: "TIDEPOOL_EXPRESSIONS",
} as const;

/** The services a notebook talks to. */
export interface Services {
  /** The address of each service. */
  readonly urls: { ocean: string; subgraph: string; expressions: string; archive: string };
  /** The archive site to read: `TIDEPOOL_ARCHIVE_ACCOUNT` and `TIDEPOOL_ARCHIVE_DB`, or the sandbox's. */
  readonly archiveSite: { account: string; db: string };
  /** Whether any address came from the environment (a real service). */
  readonly live: boolean;
  /** The cache to give the clients: `record` for real services, off for the sandbox. */
  readonly cache?: CacheOptions;
  /** The sandbox, when one was started. */
  readonly sandbox?: Sandbox;
  /** Stops the sandbox, if any. */
  close(): Promise<void>;
}

/**
 * The services for a notebook or a script: the real ones named in
 * `TIDEPOOL_OCEAN_NODE`, `TIDEPOOL_SUBGRAPH`, `TIDEPOOL_EXPRESSIONS` (and
 * `TIDEPOOL_ARCHIVE`), each missing one from a sandbox started here. With a
 * real service the cache is on in `record` mode under `.cache/tidepool` (or
 * `TIDEPOOL_CACHE_DIR`), so a second run can set `TIDEPOOL_CACHE_MODE=replay`
 * and run offline.
 *
 * @param options Sandbox options, for the services that come from it.
 * @returns The addresses, the cache settings and a close function.
 *
 * @example In a notebook's first cell
 * ```ts ignore
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
  const live = Object.values(given).some((url) => url !== undefined);
  const needSandbox = Object.values(given).some((url) => url === undefined);
  const sandbox = needSandbox ? await startSandbox(options) : undefined;
  const mode = env("TIDEPOOL_CACHE_MODE") as CacheOptions["mode"] | undefined;
  const cache: CacheOptions | undefined = live || mode
    ? { dir: env("TIDEPOOL_CACHE_DIR") ?? ".cache/tidepool", mode: mode ?? "record" }
    : undefined;
  return {
    urls: {
      ocean: given.ocean ?? sandbox!.urls.ocean,
      subgraph: given.subgraph ?? sandbox!.urls.subgraph,
      expressions: given.expressions ?? sandbox!.urls.expressions,
      archive: given.archive ?? sandbox!.urls.archive,
    },
    archiveSite: given.archive
      ? { account: env("TIDEPOOL_ARCHIVE_ACCOUNT") ?? "", db: env("TIDEPOOL_ARCHIVE_DB") ?? "" }
      : { account: "shinano", db: "letters" },
    live,
    cache,
    sandbox,
    close: async () => {
      await sandbox?.close();
    },
  };
}
