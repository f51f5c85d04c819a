/**
 * One transaction lane per wallet and chain. A wallet's transactions take
 * consecutive nonces; two sent at once from one process take the same one
 * and the second fails ("nonce too low"), possibly between a payment and the
 * order it pays for. In the lane, one order at a time re-checks the funds,
 * pays and orders, each transaction mined before the next is sent, so its
 * nonce is the chain's next; orders of other wallets or chains run beside it.
 *
 * @module
 */

import { inSigningLane } from "../_signing_lane.ts";

/**
 * Runs `body` alone in the lane of `address` on chain `chainId`, after every
 * call that entered the lane before it.
 *
 * @param chainId The chain.
 * @param address The wallet (compared case-insensitively).
 * @param body The transactions, each awaited to its receipt.
 * @returns What `body` returned.
 */
export function inTransactionLane<T>(
  chainId: number,
  address: string,
  body: () => Promise<T>,
): Promise<T> {
  return inSigningLane(`eip155:${chainId}`, address, body);
}
