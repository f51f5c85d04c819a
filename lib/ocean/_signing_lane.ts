/**
 * One signing lane per wallet and node. The node accepts a signed request
 * only when its nonce is above the last one it stored for the address, so two
 * requests of one wallet that reach the node out of order make the later
 * nonce fail. A lane lets one call at a time take a nonce, sign and send,
 * and opens for the next once the node has answered (its status and headers:
 * by then it has checked and stored the nonce, so a streamed body need not
 * hold the lane).
 *
 * @module
 */

/** The tail of each busy lane; a lane that falls idle is removed. */
const lanes = new Map<string, Promise<void>>();

/**
 * Runs `body` alone in the lane of `address` at `node`, after every call
 * that entered the lane before it. Waiting in the lane ends at once when
 * `signal` aborts, without holding up the calls behind.
 *
 * @param node The node's base URL.
 * @param address The wallet address (compared case-insensitively).
 * @param body The call: takes a nonce, signs and sends, resolves once the node answered.
 * @param signal Cancels the wait for the lane.
 * @returns What `body` returned.
 */
export async function inSigningLane<T>(
  node: string,
  address: string,
  body: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const key = `${node} ${address.toLowerCase()}`;
  const ahead = lanes.get(key) ?? Promise.resolve();
  let leave!: () => void;
  const left = new Promise<void>((resolve) => leave = resolve);
  const tail = ahead.then(() => left);
  lanes.set(key, tail);
  tail.then(() => {
    if (lanes.get(key) === tail) lanes.delete(key);
  });
  try {
    await untilAborted(ahead, signal);
    return await body();
  } finally {
    // Leaving early (aborted while waiting) is safe: the next call still waits for `ahead`.
    leave();
  }
}

/** Waits for `promise`, or rejects with the signal's reason when it aborts first. */
function untilAborted(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
