/**
 * The sandbox Ocean subgraph: a graph-node look-alike on seeded data.
 *
 * @module
 */

export * from "./serve_subgraph.ts";
