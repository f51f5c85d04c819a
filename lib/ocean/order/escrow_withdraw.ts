/**
 * Taking back from ocean-node's Escrow what no job holds: a quote of what
 * is available, and the withdraw itself, live and alone in the wallet's
 * lane (never from a recording, never past a fired signal, never more than
 * the funds not locked).
 *
 * @module
 */

import { checkOptions } from "../../options/check_options.ts";
import { SANDBOX_CHAIN_ID } from "./order_asset.ts";
import { refusePaymentInReplay, refuseStopped } from "./_payment_mode.ts";
import type { ChainHex, OrderAccount } from "./_order_types.ts";

/** Options of {@linkcode quoteEscrowWithdraw} and {@linkcode withdrawEscrow}. */
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

/** What {@linkcode withdrawEscrow} did. */
export interface EscrowWithdrawResult extends EscrowWithdrawQuote {
  /** The withdraw transaction. */
  tx: ChainHex;
  /** Available after, read from the chain. */
  availableAfter: string;
}

const RULES = {
  rpcUrl: "string",
  chainId: "integer",
  escrow: "string",
  token: "string",
  account: "object",
  amount: "string",
  signal: "signal",
} as const;

/**
 * What a withdraw would take back, read live: the amount asked (default all
 * that is available), the funds available and those locked. Nothing is
 * signed or sent; an amount above what is available is refused.
 *
 * @param options Chain, Escrow, token, account, amount.
 * @returns The quote.
 * @example What can be taken back
 * ```ts ignore
 * const quote = await quoteEscrowWithdraw({ rpcUrl, escrow, token, account });
 * console.log(`${quote.amount} available, ${quote.locked} locked by jobs`);
 * ```
 */
export async function quoteEscrowWithdraw(
  options: EscrowWithdrawOptions,
): Promise<EscrowWithdrawQuote> {
  checkOptions("quoteEscrowWithdraw", options, RULES);
  refusePaymentInReplay("quote a withdraw from the escrow");
  // viem loads with the first call: importing tidepool should not pay for it.
  const { quoteOnChain } = await import("./_escrow_withdraw_chain.ts");
  return await quoteOnChain(options, options.chainId ?? SANDBOX_CHAIN_ID);
}

/**
 * Withdraws from the Escrow what no job holds: the quote is read again live
 * inside the wallet's lane (one lane across processes), then one `withdraw`
 * is sent and awaited to its receipt. Refused before anything is sent in
 * replay, after the signal fired, for an amount above what is available, or
 * when nothing is available.
 *
 * @param options Chain, Escrow, token, account, amount, signal.
 * @returns The quote that was executed, the transaction and what is available after.
 * @example Taking back what a failed job left
 * ```ts ignore
 * const done = await withdrawEscrow({ rpcUrl, escrow, token, account });
 * console.log(`took back ${done.amount} in ${done.tx}`);
 * ```
 */
export async function withdrawEscrow(
  options: EscrowWithdrawOptions,
): Promise<EscrowWithdrawResult> {
  checkOptions("withdrawEscrow", options, RULES);
  const action = "withdraw from the escrow";
  refuseStopped(options.signal, action);
  refusePaymentInReplay(action);
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  const { withdrawOnChain } = await import("./_escrow_withdraw_chain.ts");
  return await withdrawOnChain(options, chainId, action);
}
