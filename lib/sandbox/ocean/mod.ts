/**
 * The sandbox Ocean node and its seeded assets.
 *
 * @module
 */

export * from "./start_ocean_sandbox.ts";
export * from "./assets_seed.ts";
export * from "./compute/mod.ts";
export type { OceanFaults } from "./_state.ts";
export type {
  DdoDatatoken,
  DdoEvent,
  DdoMetadata,
  DdoNft,
  DdoService,
  IndexedMetadata,
} from "../../ocean/ddo.ts";
export type { AlgorithmMetadata, ComputeOptions } from "../../ocean/ddo.ts";
export type { AlgorithmContainer } from "../../ocean/ddo.ts";
