/**
 * Fresh nonces: a digit string larger than both the node's stored nonce and
 * anything this process already used for the address. Millisecond time,
 * bumped when needed, so the "stored nonce is a timestamp, last plus one is
 * always behind" trap of the node (spec section 5) cannot happen.
 *
 * @module
 */

const lastUsed = new Map<string, bigint>();

/**
 * The next nonce for an address.
 *
 * @param address The consumer address (compared case-insensitively).
 * @param stored The node's stored nonce for it, when known.
 * @param now The clock, for tests.
 */
export function nextNonce(address: string, stored?: string, now: number = Date.now()): string {
  const key = address.toLowerCase();
  let nonce = BigInt(Math.floor(now));
  const storedValue = stored && /^[0-9]+$/.test(stored) ? BigInt(stored) : undefined;
  if (storedValue !== undefined && nonce <= storedValue) nonce = storedValue + 1n;
  const previous = lastUsed.get(key);
  if (previous !== undefined && nonce <= previous) nonce = previous + 1n;
  lastUsed.set(key, nonce);
  return nonce.toString();
}
