/**
 * A quote from live reads of the chain: each order planned, the tokens it
 * pays in named (symbol, decimals), the cap checked per order, and the gas
 * price read; the tables come from `quote_table.ts`.
 *
 * @module
 */

import { erc20Abi } from "viem";
import type { ChainContext } from "./_chain_context.ts";
import type { DatatokenOrder } from "./_order_types.ts";
import { type OrderTarget, planOrder } from "./_order_plan.ts";
import { GAS_PRICE_MARGIN_PERCENT, refuseAboveCap } from "./_plan_checks.ts";
import type { OrderQuote, QuotedOrder, QuotedToken } from "./_quote_types.ts";
import { quoteTables } from "./quote_table.ts";

/** An order to quote: a target to plan, or an order the caller already made. */
export type QuoteItem = OrderTarget & { given?: DatatokenOrder };

/**
 * Reads a quote of the orders.
 *
 * @param context The buyer's clients.
 * @param chainId The chain.
 * @param items The orders, in the order they are sent.
 * @param maxPrice The cap per order in whole tokens, or undefined.
 * @returns The quote.
 */
export async function readQuote(
  context: ChainContext,
  chainId: number,
  items: readonly QuoteItem[],
  maxPrice: string | undefined,
): Promise<OrderQuote> {
  const orders: QuotedOrder[] = [];
  for (const { given, ...target } of items) {
    orders.push(
      given
        // Given by the caller: never looked up again (no reuse window), nothing to send.
        ? {
          ...target,
          reuseWithinSeconds: undefined,
          source: "reused",
          reused: given,
          transactions: [],
        }
        : await planOrder(context, target),
    );
  }
  const tokens = new Map<string, QuotedToken>();
  for (const order of orders) {
    for (const tx of order.transactions) {
      const addresses = [...tx.payments.map((p) => p.token), tx.allowance?.token];
      for (const address of addresses) {
        if (!address || tokens.has(address.toLowerCase())) continue;
        tokens.set(address.toLowerCase(), await tokenInfo(context, address));
      }
    }
  }
  for (const order of orders) refuseAboveCap(order, maxPrice, tokens);
  const gasPrice = await context.reader.getGasPrice();
  const expiries = orders.filter((o) => o.source !== "reused" && o.providerFee.validUntil > 0)
    .map((o) => o.providerFee.validUntil);
  return {
    chainId,
    buyer: context.buyer,
    quotedAt: new Date(),
    validUntil: expiries.length > 0 ? new Date(Math.min(...expiries) * 1000) : null,
    orders,
    tokens,
    gasPrice,
    ...quoteTables(orders, tokens, gasPrice, GAS_PRICE_MARGIN_PERCENT),
  };
}

/** A token's symbol and decimals, as it says; a token that does not say is shown by address. */
async function tokenInfo(context: ChainContext, address: `0x${string}`): Promise<QuotedToken> {
  const read = (functionName: "symbol" | "decimals") =>
    context.reader.readContract({ address, abi: erc20Abi, functionName });
  const [symbol, decimals] = await Promise.all([
    read("symbol").catch(() => address),
    read("decimals").catch(() => 18),
  ]);
  return { symbol: String(symbol), decimals: Number(decimals) };
}
