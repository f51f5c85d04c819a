/**
 * The options and answers of `quoteEscrowWithdraw` and `withdrawEscrow`,
 * shared by the public functions and the chain code they load.
 *
 * @module
 */

import type { ChainHex, OrderAccount } from "./_order_types.ts";

/** Options of `quoteEscrowWithdraw` and `withdrawEscrow`. */
export interface EscrowWithdrawOptions {
  /** The chain's JSON-RPC URL. */
  rpcUrl: string;
  /** The chain id; default the sandbox chain's. */
  chainId?: number;
  /** The Escrow contract (`payment.escrowAddress` of `initializeCompute`). */
  escrow: string;
  /** The token to take back. */
  token: string;
  /** The payer's account (it signs locally). */
  account: OrderAccount;
  /** How much, in whole tokens (a decimal string); default all that is available. */
  amount?: string;
  /** Stops before anything is sent (never a transaction under way). */
  signal?: AbortSignal;
}

/** What a withdraw takes back, as read live from the Escrow. */
export interface EscrowWithdrawQuote {
  /** The Escrow. */
  escrow: ChainHex;
  /** The token. */
  token: ChainHex;
  /** The payer, who receives the amount. */
  payer: ChainHex;
  /** The amount the withdraw takes back (whole tokens, exact). */
  amount: string;
  /** Available before: the most a withdraw may take. */
  available: string;
  /** Locked by jobs: never withdrawn until claimed or cancelled after expiry. */
  locked: string;
}

/** What `withdrawEscrow` did. */
export interface EscrowWithdrawResult extends EscrowWithdrawQuote {
  /** The withdraw transaction. */
  tx: ChainHex;
  /** Available after, read from the chain. */
  availableAfter: string;
}
