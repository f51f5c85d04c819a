/**
 * Local servers that follow the service specs with seeded, deterministic
 * data: the offline default of the demo, the notebooks and the tests. Each
 * binds 127.0.0.1 with an ephemeral port and stops with `close()`.
 *
 * @module
 */

export * from "./start_sandbox.ts";
export * from "./open_services.ts";
export * from "./compute_plan.ts";
export { SANDBOX_NOW } from "./sandbox_now.ts";
export { startOceanSandbox } from "./ocean/mod.ts";
export { serveSubgraph } from "./subgraph/mod.ts";
export { startExpressionSandbox } from "./expressions/mod.ts";
export { startArchiveSandbox } from "./archive/mod.ts";
export {
  anvilBinaryPath,
  type AnvilChain,
  type ChainAddress,
  type ChainSandboxOptions,
  type DatatokenPricing,
  deployOceanContracts,
  type FeeSigner,
  OCEAN_MINTED,
  type OceanContracts,
  publishDatatoken,
  type PublishDatatokenParameters,
  type PublishedDatatoken,
  type SandboxChain,
  type SignedProviderFee,
  signProviderFee,
  startAnvil,
  type StartAnvilOptions,
  startChainSandbox,
  withAnvil,
} from "./chain/mod.ts";
export type { CacheOptions } from "../http/cache.ts";
export type { LocalServer } from "./_serve.ts";
export { SANDBOX_SEED_VARIABLE, type SandboxMode } from "./_strictness.ts";
export type { CacheMode } from "../http/cache.ts";
