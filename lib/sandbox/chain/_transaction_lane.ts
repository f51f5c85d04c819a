/**
 * One lane per account and chain for sending transactions. viem fills a
 * transaction's nonce from the account's pending transaction count, so two
 * sends of one account that overlap take the same nonce and one fails
 * ("nonce too low"). Inside a lane a send starts only once the previous one
 * of that account has been accepted by the node (its hash returned), when
 * the pending count already includes it. Waiting for receipts happens
 * outside the lane, so parallel publishes still mine without waiting on
 * each other.
 *
 * @module
 */

/** The tail of each busy lane; a lane that falls idle is removed. */
const lanes = new Map<string, Promise<unknown>>();

/**
 * Runs `send` after every earlier send of `account` on the chain at `rpcUrl`.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param account The sending address (compared case-insensitively).
 * @param send Sends one transaction and resolves with its hash.
 * @returns What `send` returned.
 */
export function inTransactionLane<T>(
  rpcUrl: string,
  account: string,
  send: () => Promise<T>,
): Promise<T> {
  const key = `${rpcUrl} ${account.toLowerCase()}`;
  const ahead = lanes.get(key) ?? Promise.resolve();
  // A failed send must not block the lane: the next one runs either way.
  const result = ahead.catch(() => {}).then(send);
  const tail = result.catch(() => {});
  lanes.set(key, tail);
  tail.then(() => {
    if (lanes.get(key) === tail) lanes.delete(key);
  });
  return result;
}
