/**
 * A local chain for orders: anvil from npm, with the Ocean contracts
 * deployed by viem. Anvil binds 127.0.0.1 on a free port and is always
 * killed by `close()`.
 *
 * @module
 */

export * from "./start_anvil.ts";
export * from "./deploy_ocean_contracts.ts";
export * from "./publish_datatoken.ts";
export * from "./provider_fee.ts";
export * from "./validate_order.ts";
export * from "./start_chain_sandbox.ts";
export { CLAIM_TIMEOUT_SECONDS, escrowJobId } from "./escrow_payee.ts";
