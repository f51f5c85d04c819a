/**
 * A quote from live reads of the chain: each order planned, the tokens it
 * pays in named (symbol, decimals), the cap checked per order, and the gas
 * price read; the tables come from `quote_table.ts`.
 *
 * @module
 */

import { erc20Abi } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "./_chain_context.ts";
import type { PriceCap } from "./_max_price.ts";
import type { DatatokenOrder } from "./_order_types.ts";
import { type OrderTarget, type PlanAllowances, planOrder } from "./_order_plan.ts";
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
 * @param maxPrice The cap of all the orders together (`priceCap`), or undefined.
 * @returns The quote.
 */
export async function readQuote(
  context: ChainContext,
  chainId: number,
  items: readonly QuoteItem[],
  maxPrice: PriceCap | undefined,
): Promise<OrderQuote> {
  const orders: QuotedOrder[] = [];
  const allowances: PlanAllowances = new Map();
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
        : await planOrder(context, target, allowances),
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
  // Without a cap the quote shows every part; ordering refuses what no cap allows.
  if (maxPrice !== undefined) refuseAboveCap(orders, maxPrice, tokens);
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

/**
 * A token's symbol and decimals, as it says. A token that does not say its
 * symbol is shown by address; one that does not say its decimals (the call
 * reverts, or answers past 255) is refused: an amount of it cannot be shown
 * or capped in whole tokens, and taking it as 18 could make a cap mean a
 * million times more.
 */
async function tokenInfo(context: ChainContext, address: `0x${string}`): Promise<QuotedToken> {
  const read = (functionName: "symbol" | "decimals") =>
    context.reader.readContract({ address, abi: erc20Abi, functionName });
  const [symbol, decimals] = await Promise.all([
    read("symbol").catch(() => address),
    read("decimals").catch((error: unknown) => {
      // A chain that does not answer is not a token that does not say.
      if ((error as Error)?.name !== "ContractFunctionExecutionError") throw error;
      return error;
    }),
  ]);
  if (typeof decimals !== "number" || !Number.isInteger(decimals) || decimals > 255) {
    throw new TidepoolError(`Cannot order: token ${address} does not say its decimals`, {
      details: decimals instanceof Error
        ? (decimals as { shortMessage?: string }).shortMessage ?? decimals.message
        : String(decimals),
      detailsLabel: "Chain said",
      hint:
        "Nothing was sent. An order would pay in this token, and without its decimals no amount of it can be shown or capped; ask the publisher or the node's operator",
    });
  }
  return { symbol: String(symbol), decimals };
}
