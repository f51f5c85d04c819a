/**
 * What Deno itself does for a run, outside the run's permissions, pinned
 * for `reproduce`. Deno downloads npm and JSR packages itself (`--deny-net`
 * does not stop it, and a project's `.npmrc` names the registry), and it
 * writes a lockfile (where the project's `deno.json` says), a
 * `node_modules` or `vendor` folder, and its caches under `DENO_DIR`
 * (compiled code, localStorage, the Cache API, KV) without asking either.
 * So a confined run goes in two steps:
 *
 * 1. the project's static module graph is fetched into the reviewer's Deno
 *    cache by `deno cache`, with the reviewer's own registry settings (the
 *    project's `.npmrc` files are left out of the scratch copy), remote
 *    imports from JSR only;
 * 2. the run, and the check of its imports, read that cache with
 *    `--cached-only`, so nothing is downloaded while the author's code
 *    runs; their `DENO_DIR` is a folder of the scratch copy that the run
 *    cannot write, with the reviewer's npm and module caches linked in, so
 *    Deno's own files of the run stay in the copy.
 *
 * In both steps the lockfile is pinned inside the copy and no
 * `node_modules` or `vendor` folder is used.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { TidepoolError } from "../errors/errors.ts";
import { isInside, workspaceMembers } from "./_project_copy.ts";

/** Where the reviewer's Deno keeps its caches, as `deno info --json` says. */
export interface DenoCaches {
  /** The reviewer's `DENO_DIR`. */
  readonly denoDir: string;
  /** The npm cache: npm packages read their own files (a `.wasm`) at run time. */
  readonly npmCache: string;
  /** The cache of remote modules (JSR). */
  readonly modulesCache: string;
}

/** The reviewer's Deno caches. */
export async function denoCaches(): Promise<DenoCaches> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new TidepoolError("Cannot reproduce: deno info could not name Deno's cache folder", {
      details: new TextDecoder().decode(stderr).slice(-800),
      detailsLabel: "Deno said",
      hint: "Check that `deno info` runs here",
    });
  }
  const info = JSON.parse(new TextDecoder().decode(stdout));
  // Deno reads packages by their real path: a cache behind a link is allowed by where it is.
  const real = (path: string) => Deno.realPath(path).catch(() => path);
  return {
    denoDir: String(info.denoDir),
    npmCache: await real(String(info.npmCache)),
    modulesCache: await real(String(info.modulesCache)),
  };
}

/** How Deno is set up for the steps of one confined run. */
export interface DenoSetup {
  /** The run's `DENO_DIR`: in the scratch folder, outside what the run may write. */
  readonly denoDir: string;
  /** The reviewer's npm cache, which the run reads through `denoDir`. */
  readonly npmCaches: readonly string[];
  /** The lockfile, inside the copy of the project. */
  readonly lock: string;
  /** Whether the project has a config file (else Deno is told to look for none above the copy). */
  readonly configured: boolean;
  /** The registry the reviewer's Deno downloads from, when not npm's own: the run looks there in the cache. */
  readonly registry: string | undefined;
}

const CONFIGS = ["deno.json", "deno.jsonc"];

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

/**
 * Prepares Deno for a confined run: its own `DENO_DIR` at `denoDir`, with
 * the reviewer's npm and module caches linked in, and where the lockfile goes.
 *
 * @param module The module to run, inside the copy.
 * @param project The copy of the project (its root).
 * @param denoDir A new folder of the scratch copy, outside what the run may write.
 * @param caches The reviewer's Deno caches.
 * @returns The setup every step of the run is given.
 */
export async function denoSetup(
  module: string,
  project: string,
  denoDir: string,
  caches: DenoCaches,
): Promise<DenoSetup> {
  await Deno.mkdir(denoDir, { recursive: true });
  // Deno finds packages at DENO_DIR/npm and DENO_DIR/remote; the links are never writable by the run.
  await Deno.symlink(caches.npmCache, join(denoDir, "npm"));
  await Deno.symlink(caches.modulesCache, join(denoDir, "remote"));
  const config = await nearestConfig(dirname(module), project);
  return {
    denoDir,
    npmCaches: [join(denoDir, "npm"), caches.npmCache],
    lock: join(config ?? project, "deno.lock"),
    configured: config !== undefined,
    registry: await reviewerRegistry(),
  };
}

/**
 * The folder whose config Deno uses for the module, as Deno finds it: the
 * nearest one with a `deno.json` from the module's folder up to the
 * project, or the project's root when that is a workspace holding it.
 */
async function nearestConfig(from: string, project: string): Promise<string | undefined> {
  for (let folder = from; isInside(folder, project); folder = dirname(folder)) {
    if ((await Promise.all(CONFIGS.map((name) => exists(join(folder, name))))).some(Boolean)) {
      const members = folder === project ? [] : await workspaceMembers(project);
      return members.some((member) => isInside(folder, member)) ? project : folder;
    }
    if (folder === project) break;
  }
  return undefined;
}

/**
 * The npm registry the reviewer's Deno uses, when they set one
 * (`NPM_CONFIG_REGISTRY`, else `registry=` in their `~/.npmrc`), without
 * any credentials in its address: the run needs only its host, which names
 * its folder in the npm cache.
 */
async function reviewerRegistry(): Promise<string | undefined> {
  let registry = Deno.env.get("NPM_CONFIG_REGISTRY");
  const home = Deno.env.get("HOME");
  if (!registry && home) {
    const npmrc = await Deno.readTextFile(join(home, ".npmrc")).catch(() => "");
    registry = npmrc.match(/^\s*registry\s*=\s*(\S+)/m)?.[1];
  }
  if (!registry) return undefined;
  try {
    const url = new URL(registry);
    url.username = "";
    url.password = "";
    url.search = "";
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The flags that pin what Deno writes and fetches for a step: the lockfile
 * in the copy, no `node_modules` or `vendor` folder, remote imports from
 * JSR only, and no config file found above the copy when the project has none.
 *
 * @param setup The run's setup.
 * @returns The flags, for `deno cache`, `deno info` and `deno run`.
 */
export function pinnedFlags(setup: DenoSetup): string[] {
  return [
    `--lock=${setup.lock}`,
    "--node-modules-dir=none",
    "--vendor=false",
    // Deno would otherwise fetch modules from a list of public hosts, a channel out.
    "--allow-import=jsr.io:443",
    ...(setup.configured ? [] : ["--no-config"]),
  ];
}

/**
 * The environment Deno needs in every confined step: its `DENO_DIR`, the
 * reviewer's registry (to find the packages in the cache), no colour and no
 * update check.
 *
 * @param setup The run's setup.
 * @returns The variables.
 */
export function denoEnv(setup: DenoSetup): Record<string, string> {
  return {
    DENO_DIR: setup.denoDir,
    ...(setup.registry ? { NPM_CONFIG_REGISTRY: setup.registry } : {}),
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
  };
}

/**
 * Fetches the module's static graph (its npm and JSR packages) into the
 * reviewer's Deno cache, as the reviewer's Deno would: their environment and
 * registry settings, never the project's (its `.npmrc` files are not in the
 * copy). Nothing of the project runs.
 *
 * @param module The module, inside the copy.
 * @param setup The run's setup.
 * @throws {TidepoolError} When Deno cannot fetch the graph.
 */
export async function cacheModuleGraph(module: string, setup: DenoSetup): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["cache", ...pinnedFlags(setup), module],
    cwd: dirname(module),
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new TidepoolError(
      `Cannot reproduce: Deno cannot fetch the imports of ${basename(module)}`,
      {
        details: new TextDecoder().decode(stderr).trim().slice(-1500),
        detailsLabel: "Deno said",
        hint:
          "The packages are fetched before the run, from your registry (an .npmrc of the project is not used) and remote modules from jsr.io only; the run itself downloads nothing",
      },
    );
  }
}
