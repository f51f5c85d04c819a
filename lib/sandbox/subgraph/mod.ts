/**
 * The sandbox Ocean subgraph: a graph-node look-alike on seeded data.
 *
 * @module
 */

export * from "./serve_subgraph.ts";
export type { SubgraphSeedOptions } from "./_seed.ts";
export type { Row } from "./_store.ts";
export type { LocalServer } from "../_serve.ts";
