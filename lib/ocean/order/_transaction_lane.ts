/**
 * One transaction lane per wallet and chain, in this process and across
 * processes. A wallet's transactions take consecutive nonces; two sent at
 * once take the same one and the second fails ("nonce too low"), possibly
 * between a payment and the order it pays for, and two exact approvals of
 * one token overwrite each other. In the lane, one step at a time looks for
 * an order to reuse, re-reads the chain, pays and orders, each transaction
 * mined before the next is sent. Calls of this process queue in memory; the
 * one at the head of the queue then holds the wallet's file lock
 * (`_wallet_lock.ts`), so another process's calls queue too.
 *
 * @module
 */

import { inSigningLane } from "../_signing_lane.ts";
import { withWalletLock } from "./_wallet_lock.ts";

/**
 * Runs `body` alone in the lane of `address` on chain `chainId`, after every
 * call of any process that entered the lane before it.
 *
 * @param chainId The chain.
 * @param address The wallet (compared case-insensitively).
 * @param body The lane step: its reads and transactions, each awaited to its receipt.
 * @param signal Ends the wait for the lane (never a step under way).
 * @returns What `body` returned.
 */
export function inTransactionLane<T>(
  chainId: number,
  address: string,
  body: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return inSigningLane(
    `eip155:${chainId}`,
    address,
    () => withWalletLock(chainId, address, body, signal),
    signal,
  );
}
