/**
 * The provider fees of a plan, checked whole before its first transaction:
 * a fee `startOrder` would refuse halfway through a plan (after earlier
 * orders were paid) is refused before anything is sent. Each fee must be
 * signed by the address it pays, as the datatoken's `startOrder` checks it
 * (an EIP-191 signature over the keccak of the packed provider data, fee
 * address, fee token, amount and `validUntil`); the fees of one plan come
 * from one node, so they name one provider; and each must still be valid
 * when its `startOrder` is mined.
 *
 * @module
 */

import { encodePacked, getAddress, keccak256, recoverMessageAddress } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainHex } from "./_order_types.ts";
import type { QuotedOrder } from "./_quote_types.ts";

/**
 * Seconds a plan allows for each of its transactions to be mined, in the
 * validity check of its fees: a fee must be valid at least this long per
 * transaction up to and including its own `startOrder`.
 */
export const SECONDS_PER_TRANSACTION = 15;

/**
 * Refuses a plan with a fee `startOrder` would refuse, or that is not the
 * plan's one provider's, naming the order, before anything is sent.
 *
 * @param orders The orders about to be sent, in order.
 * @param nowSeconds The current time, Unix seconds.
 */
export async function refuseUnpayableFees(
  orders: readonly QuotedOrder[],
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<void> {
  let earlier = 0;
  let provider: { address: ChainHex; asset: string } | undefined;
  for (const order of orders) {
    if (order.source === "reused") continue;
    // Every transaction of the orders before, then this order's up to its startOrder.
    const sentBefore = earlier +
      order.transactions.findIndex((tx) => tx.action === "startOrder") + 1;
    earlier += order.transactions.length;
    const fee = order.providerFee;
    const asset = order.did ?? order.datatoken;
    const refuse = (what: string, details: string) =>
      new TidepoolError(`Cannot order ${asset}: its provider fee ${what}`, {
        details,
        detailsLabel: "Node fee",
        hint:
          "Nothing was sent. startOrder would refuse this fee after the orders before it were paid; initialize again (quote again), or ask the node's operator",
      });
    const payee = getAddress(fee.providerFeeAddress);
    const signer = await feeSigner(order);
    if (signer !== payee) {
      throw refuse(
        "is not signed by the address it pays",
        `paid to ${payee}, signed by ${signer ?? "no valid signature"}`,
      );
    }
    if (provider && provider.address !== payee) {
      throw refuse(
        "names another provider than the plan's other fees",
        `${provider.asset}: ${provider.address}; ${asset}: ${payee}`,
      );
    }
    provider ??= { address: payee, asset };
    const needed = nowSeconds + sentBefore * SECONDS_PER_TRANSACTION;
    if (fee.validUntil !== 0 && fee.validUntil < needed) {
      throw refuse(
        `expires before its startOrder can be mined (${sentBefore} transaction${
          sentBefore === 1 ? "" : "s"
        } of the plan up to it, ${SECONDS_PER_TRANSACTION} s each)`,
        `valid until ${new Date(fee.validUntil * 1000).toISOString()}, needed until ${
          new Date(needed * 1000).toISOString()
        }`,
      );
    }
  }
}

/** Who signed an order's provider fee, as `startOrder` recovers it; undefined when no one can. */
async function feeSigner(order: QuotedOrder): Promise<ChainHex | undefined> {
  const fee = order.providerFee;
  // ecrecover takes v as 27 or 28 only; anything else recovers no address.
  if (fee.v !== 27 && fee.v !== 28) return undefined;
  if (!/^0x[0-9a-fA-F]*$/.test(fee.providerData) || fee.providerData.length % 2 !== 0) {
    return undefined;
  }
  const hex = /^0x[0-9a-fA-F]{64}$/;
  if (!hex.test(fee.r) || !hex.test(fee.s)) return undefined;
  const message = keccak256(
    encodePacked(
      ["bytes", "address", "address", "uint256", "uint256"],
      [
        fee.providerData as ChainHex,
        getAddress(fee.providerFeeAddress),
        getAddress(fee.providerFeeToken),
        BigInt(fee.providerFeeAmount),
        BigInt(fee.validUntil),
      ],
    ),
  );
  try {
    return getAddress(
      await recoverMessageAddress({
        message: { raw: message },
        signature: { r: fee.r as ChainHex, s: fee.s as ChainHex, v: BigInt(fee.v) },
      }),
    );
  } catch {
    return undefined;
  }
}
