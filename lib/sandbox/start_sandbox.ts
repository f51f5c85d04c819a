import {
  type ExpressionSandbox,
  type ExpressionSandboxOptions,
  startExpressionSandbox,
} from "./expressions/mod.ts";
import {
  type ArchiveSandbox,
  type ArchiveSandboxOptions,
  startArchiveSandbox,
} from "./archive/mod.ts";
import {
  type ChainSandboxOptions,
  type SandboxChain,
  startChainSandbox,
} from "./chain/start_chain_sandbox.ts";
import { type OceanSandbox, type OceanSandboxOptions, startOceanSandbox } from "./ocean/mod.ts";
import type { SandboxMode } from "./_strictness.ts";
import { type SandboxSubgraph, serveSubgraph, type ServeSubgraphOptions } from "./subgraph/mod.ts";

/** Options of {@linkcode startSandbox}: per-service options. */
export interface SandboxOptions {
  /**
   * `strict` (default): the services answer only what their specs define;
   * `lenient` (demos, notebooks): undocumented parameters and fields pass.
   * A service's own `mode` wins.
   */
  mode?: SandboxMode;
  /** The Ocean node: catalogue size, seed, faults. */
  ocean?: OceanSandboxOptions;
  /** The Ocean subgraph: order count, faults. */
  subgraph?: ServeSubgraphOptions;
  /** The expression search: record count, rate limit. */
  expressions?: ExpressionSandboxOptions;
  /** The archive platform: seed and harvesting options. */
  archive?: ArchiveSandboxOptions;
  /**
   * A local chain (anvil) with the node's assets published on it: orders are
   * real transactions and the node checks them on chain. Off by default.
   */
  chain?: boolean | ChainSandboxOptions;
}

/** Every sandbox service, running on loopback. */
export interface Sandbox {
  /** The Ocean node (catalogue and compute). */
  readonly ocean: OceanSandbox;
  /** The Ocean subgraph. */
  readonly subgraph: SandboxSubgraph;
  /** The expression search service. */
  readonly expressions: ExpressionSandbox;
  /** The archive platform (account `shinano`, rdf-enabled database `letters`). */
  readonly archive: ArchiveSandbox;
  /** The local chain, when started with `chain`. */
  readonly chain?: SandboxChain;
  /** The address to give each client. */
  readonly urls: { ocean: string; subgraph: string; expressions: string; archive: string };
  /** Stops every service. */
  close(): Promise<void>;
  /** Same as close, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts every sandbox service on 127.0.0.1 with ephemeral ports, with the
 * seeded data of each: the offline default of the demo, the notebooks and
 * the tests.
 *
 * The seeded data is dated as of `SANDBOX_NOW` (2026-06-30): nothing
 * seeded lies after it, so "the last 90 days" means the 90 days before it.
 *
 * @param options Per-service options.
 * @returns The running services and their URLs.
 *
 * @example Running against the sandbox
 * ```ts
 * import { ExpressionSearch } from "../expressions/expression_search.ts";
 * await using sandbox = await startSandbox();
 * const ex = new ExpressionSearch(sandbox.urls.expressions, { progress: false });
 * console.log((await ex.stats()).total);
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ocean = startOceanSandbox({ mode: options.mode, ...options.ocean });
  const subgraph = serveSubgraph(options.subgraph);
  const expressions = startExpressionSandbox({ mode: options.mode, ...options.expressions });
  const archive = await startArchiveSandbox({ mode: options.mode, ...options.archive });
  let chain: SandboxChain | undefined;
  const close = async () => {
    await Promise.all([
      ocean.close(),
      subgraph.close(),
      expressions.close(),
      archive.close(),
      chain?.close(),
    ]);
  };
  if (options.chain) {
    try {
      chain = await startChainSandbox(ocean, options.chain === true ? {} : options.chain);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return {
    ocean,
    subgraph,
    expressions,
    archive,
    chain,
    urls: {
      ocean: ocean.url,
      subgraph: subgraph.endpoint,
      expressions: expressions.url,
      archive: archive.url,
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
