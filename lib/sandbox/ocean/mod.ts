/**
 * The sandbox Ocean node and its seeded assets.
 *
 * @module
 */

export * from "./start_ocean_sandbox.ts";
export * from "./assets_seed.ts";
export * from "./compute/mod.ts";
