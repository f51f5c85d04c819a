/**
 * A recording never decides or sends a payment. Replay promises answers
 * from disk with no network, and a chain write or a signed paid call cannot
 * be answered from disk without lying: in replay mode each is refused
 * before anything is read, signed or sent.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { cacheFromEnvironment } from "../../http/cache_from_env.ts";
import type { CacheMode } from "../../http/cache.ts";

/**
 * Refuses a payment when the node's client or the environment replays.
 *
 * @param action What would be paid: `order`, `start a paid compute job`.
 * @param clientMode The cache mode of the node's client, when there is one.
 */
export function refusePaymentInReplay(action: string, clientMode?: CacheMode): void {
  const envMode = cacheFromEnvironment()?.mode;
  if (clientMode !== "replay" && envMode !== "replay") return;
  const where = clientMode === "replay"
    ? "the node's client was given cache mode replay"
    : "TIDEPOOL_CACHE_MODE is replay";
  throw new TidepoolError(
    `Cannot ${action} in replay mode: a recording never decides or sends a payment (${where})`,
    {
      hint:
        "Nothing was read, signed or sent. Run the payment live: unset TIDEPOOL_CACHE_MODE (or set it to record) and give the client no replay cache; reads of the chain such as chainOrders still replay",
    },
  );
}

/**
 * Refuses to start a payment whose signal has already fired: nothing is
 * read, signed or sent.
 *
 * @param signal The caller's stop signal.
 * @param action What would be paid: `order`, `start a paid compute job`.
 */
export function refuseStopped(signal: AbortSignal | undefined, action: string): void {
  if (!signal?.aborted) return;
  throw new TidepoolError(`Cannot ${action}: stopped by the signal before anything was sent`, {
    hint: "Nothing was read, signed or sent. Call again with a signal that has not fired",
    cause: signal.reason,
  });
}
