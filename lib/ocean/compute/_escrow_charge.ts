/**
 * Whether a paid compute job charges for its resources through ocean-node's
 * escrow, which tidepool does not pay yet: fail-closed, so a price or an
 * amount that is not provably zero (a decimal, an exponent, hex, a negative,
 * another type) is a charge and the job is refused, the environment's prices
 * before anything is sent and the node's `payment.amount` before any order.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { showValue } from "../../errors/redact.ts";
import type { InitializeComputeReturnType } from "./initialize_compute.ts";
import type { ComputeEnvironmentLimits } from "./types.ts";

/** A value the node sent, short and never a key. */
function shown(value: unknown): string {
  if (typeof value === "string") return showValue(value);
  return (JSON.stringify(value) ?? String(value)).slice(0, 60);
}

/** Zero as a JSON number, or as a string of zeros (with zero decimals for a price). */
function provablyZero(value: unknown, decimals: boolean): boolean {
  if (typeof value === "number") return value === 0;
  if (typeof value !== "string") return false;
  return (decimals ? /^0+(\.0+)?$/ : /^0+$/).test(value);
}

const ESCROW_HINT =
  "Nothing was sent or paid. Pick an environment whose resources cost nothing on this chain, or lock the payment in the node's escrow yourself";

/**
 * Refuses an environment whose resources may cost anything in `token` on
 * `chainId`: each fee entry in that token must list its prices, and each
 * price must be zero (ocean-node prices a resource it does not list at 0).
 *
 * @param environment The environment, as the node listed it.
 * @param chainId The order chain.
 * @param token The payment token.
 */
export function refuseEscrowPriced(
  environment: ComputeEnvironmentLimits,
  chainId: number,
  token: string,
): void {
  const fees = (environment.fees as Record<string, unknown> | null | undefined)?.[
    String(chainId)
  ];
  const charges: string[] = [];
  for (const fee of Array.isArray(fees) ? fees : []) {
    if (String(fee?.feeToken).toLowerCase() !== token.toLowerCase()) continue;
    if (!Array.isArray(fee.prices)) {
      charges.push(`prices ${shown(fee.prices ?? null)} (not a list)`);
      continue;
    }
    for (const entry of fee.prices) {
      if (!provablyZero(entry?.price, true)) {
        charges.push(`${String(entry?.id).slice(0, 40)} ${shown(entry?.price ?? null)}`);
      }
    }
  }
  if (charges.length === 0) return;
  throw new TidepoolError(
    `Cannot start compute job: environment ${environment.id} charges for its resources in ${token} on chain ${chainId}, paid through an escrow lock tidepool does not make`,
    { details: charges.join("; "), detailsLabel: "Prices per unit and minute", hint: ESCROW_HINT },
  );
}

/**
 * Refuses terms whose `payment.amount` is not provably zero. A missing
 * `payment` is what a node without the escrow sends (the orders pay for
 * everything); a `payment` without an amount is refused.
 *
 * @param terms The node's initializeCompute answer.
 */
export function refuseEscrowPayment(terms: InitializeComputeReturnType): void {
  const payment = terms.payment as unknown;
  if (payment === undefined || payment === null) return;
  const amount = typeof payment === "object" ? (payment as { amount?: unknown }).amount : payment;
  if (provablyZero(amount, false)) return;
  const token = typeof payment === "object"
    ? String((payment as { token?: unknown }).token).slice(0, 80)
    : "an unnamed token";
  throw new TidepoolError(
    `Cannot start compute job: the environment charges ${
      shown(amount ?? null)
    } base units of ${token} for its resources, paid through an escrow lock tidepool does not make`,
    { hint: ESCROW_HINT },
  );
}
