/**
 * Orders one service of a datatoken on chain: gets the datatoken from the
 * dispenser (free) or the fixed-rate exchange (priced), pays the provider
 * fee and calls `startOrder`, checking everything it can before it sends.
 * viem loads with the first order (`_order_transactions.ts`), not with
 * tidepool, and none of its types is part of this contract.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { onChain } from "./_chain_errors.ts";
import type { DatatokenOrder, OrderDatatokenParameters, PreparedOrder } from "./_order_types.ts";

export type {
  ChainHex,
  DatatokenOrder,
  OrderAccount,
  OrderDatatokenParameters,
  OrderProviderFee,
  PreparedOrder,
} from "./_order_types.ts";

/**
 * Orders a service: refuses an expired provider fee, a price above
 * `maxPrice`, or a balance too small for price plus fee before sending
 * anything; approves exactly what is spent; then dispenses or buys one
 * datatoken (unless one is already held), calls `startOrder` and waits for
 * its receipt. A still-valid earlier order is returned instead when
 * `reuseWithinSeconds` is given.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The order's transaction, block and price.
 * @example Order a free dataset on the sandbox chain
 * ```ts ignore
 * import { privateKeyToAccount } from "viem/accounts";
 * const account = privateKeyToAccount(key);
 * const order = await orderDatatoken({ rpcUrl, account, datatoken, serviceIndex: 0, providerFee });
 * console.log(order.txHash);
 * ```
 */
export async function orderDatatoken(
  parameters: OrderDatatokenParameters,
): Promise<DatatokenOrder> {
  checkCall("orderDatatoken", parameters);
  return await (await prepareOrder(parameters)).send();
}

/**
 * Everything {@linkcode orderDatatoken} checks, without sending: an earlier
 * still-valid order, the fee's expiry, the price against `maxPrice`, and the
 * buyer's balance for this one order. A caller ordering several assets sums
 * the prepared costs and checks them together before sending any.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The prepared order; `send()` places it.
 * @example Check the price before buying
 * ```ts ignore
 * const prepared = await prepareOrder({ rpcUrl, account, datatoken, serviceIndex: 0, providerFee });
 * if (prepared.price < 10n ** 18n) await prepared.send();
 * ```
 */
export async function prepareOrder(parameters: OrderDatatokenParameters): Promise<PreparedOrder> {
  checkCall("prepareOrder", parameters);
  parameters = { ...parameters, maxPrice: maxPriceText(parameters.maxPrice) };
  // viem loads with the first order: importing tidepool should not pay for it.
  const { prepareOrder } = await import("./_order_transactions.ts");
  const { rpcUrl } = parameters;
  const prepared = await onChain(rpcUrl, "prepare the order", () => prepareOrder(parameters));
  return {
    ...prepared,
    balanceOf: (token) => onChain(rpcUrl, "read a balance", () => prepared.balanceOf(token)),
    send: () => onChain(rpcUrl, "send the order", () => prepared.send()),
  };
}

/**
 * A `maxPrice` as the decimal text orders compare against: text such as
 * `"1.5"`, or a plain number (`1.5`) written the same way. Anything else
 * (a negative amount, `1e-7`, `NaN`) is refused naming the option, before
 * anything is read or sent.
 *
 * @param value The option as given.
 * @returns The decimal text, or undefined when not given.
 */
export function maxPriceText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && /^\d+(\.\d+)?$/.test(text.trim())) return text.trim();
  throw new TidepoolError(
    `Invalid option maxPrice: expected a decimal amount such as "1.5", got ${
      typeof value === "string" ? JSON.stringify(value) : String(value)
    }`,
    { hint: 'Give the most you accept to pay as text ("1.5") or a plain number (1.5)' },
  );
}
