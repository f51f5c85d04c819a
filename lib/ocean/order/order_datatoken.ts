/**
 * Orders one service of a datatoken on chain: gets the datatoken from the
 * dispenser (free) or the fixed-rate exchange (priced), pays the provider
 * fee and calls `startOrder`, quoting first and checking everything it can
 * before it sends. viem loads with the first order, not with tidepool, and
 * none of its types is part of this contract.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import { priceCap } from "./_max_price.ts";
import { refusePaymentInReplay, refuseStopped } from "./_payment_mode.ts";
import { preparedFromQuote, quoteOnChain } from "./_quote_runner.ts";
import type { DatatokenOrder, OrderDatatokenParameters } from "./_order_types.ts";
import type { PreparedOrder } from "./_quote_types.ts";

export type {
  ChainHex,
  DatatokenOrder,
  OrderAccount,
  OrderDatatokenParameters,
  OrderProviderFee,
  PaidPart,
  PaymentPart,
} from "./_order_types.ts";
export type {
  OrderQuote,
  PlannedPayment,
  PlannedTransaction,
  PreparedOrder,
  QuotedOrder,
  QuotedToken,
} from "./_quote_types.ts";
export { type MaxPrice, maxPriceText, priceCap } from "./_max_price.ts";

/**
 * Orders a service: quotes it from the chain (refusing an expired provider
 * fee, or a total above `maxPrice` in any token, fees included), then in the
 * wallet's lane checks the funds of the whole plan, gas included, approves
 * what is spent, dispenses or buys one datatoken (unless one is held), calls
 * `startOrder` and waits for its receipt. A still-valid earlier order is
 * returned instead when `reuseWithinSeconds` is given. Refused in replay mode.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The order's transaction, block, and what was paid per part.
 * @example Order a free dataset on the sandbox chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * import { privateKeyToAccount } from "viem/accounts";
 * const account = privateKeyToAccount(key);
 * // Without maxPrice, a provider fee above zero is refused: only the listed price is paid.
 * const order = await orderDatatoken({
 *   rpcUrl, account, datatoken, serviceIndex: 0, providerFee, maxPrice: "2",
 * });
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
 * Everything {@linkcode orderDatatoken} checks, without sending: the quote
 * (an earlier still-valid order, the fee's expiry, the total against
 * `maxPrice`). `send()` executes it in the wallet's lane.
 *
 * @param parameters Chain, buyer, datatoken, service and fee.
 * @returns The prepared order; `quote` shows what it will send; `send()` places it.
 * @example Check the price before buying
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const prepared = await prepareOrder({ rpcUrl, account, datatoken, serviceIndex: 0, providerFee });
 * prepared.quote.totals.print();
 * if (prepared.price < 10n ** 18n) await prepared.send();
 * ```
 */
export async function prepareOrder(parameters: OrderDatatokenParameters): Promise<PreparedOrder> {
  checkCall("prepareOrder", parameters);
  refusePaymentInReplay("order");
  refuseStopped(parameters.signal, "order");
  const maxPrice = priceCap(parameters.maxPrice);
  const { rpcUrl, account } = parameters;
  const chainId = parameters.chainId ?? 31337;
  const quote = await quoteOnChain(rpcUrl, chainId, account, [{
    serviceIndex: parameters.serviceIndex,
    datatoken: parameters.datatoken as `0x${string}`,
    consumer: (parameters.consumer ?? account.address) as `0x${string}`,
    providerFee: parameters.providerFee,
    reuseWithinSeconds: parameters.reuseWithinSeconds,
    logRangeBlocks: parameters.logRangeBlocks,
  }], maxPrice);
  return preparedFromQuote(quote, rpcUrl, account, { maxPrice, signal: parameters.signal });
}
