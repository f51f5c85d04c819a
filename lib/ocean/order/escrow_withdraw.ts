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
import type {
  EscrowWithdrawOptions,
  EscrowWithdrawQuote,
  EscrowWithdrawResult,
} from "./_escrow_withdraw_types.ts";

export type {
  EscrowWithdrawOptions,
  EscrowWithdrawQuote,
  EscrowWithdrawResult,
} from "./_escrow_withdraw_types.ts";

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
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
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
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
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
