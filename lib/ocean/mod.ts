/**
 * The Ocean node client: catalogue search into Arquero tables, DDOs,
 * indexing state, file information and compute environments.
 *
 * @module
 */

export * from "./ocean_node.ts";
export * from "./assets_table.ts";
export * from "./ddo.ts";
export * from "./types.ts";
export * from "./signer.ts";
export * from "./sign_request.ts";
export * from "./publish/mod.ts";
