/**
 * A local chain for orders: anvil from npm, with the Ocean contracts
 * deployed by viem. Anvil binds 127.0.0.1 on a free port and is always
 * killed by `close()`.
 *
 * @module
 */

export * from "./start_anvil.ts";
export * from "./deploy_ocean_contracts.ts";
