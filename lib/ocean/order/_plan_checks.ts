/**
 * The checks a plan passes before its first transaction: the cap over
 * everything that leaves the wallet, the funds for the whole plan (every
 * token with all fees, and native gas for every transaction at the current
 * price with a margin), and, when a quote is executed, that the chain still
 * says what the quote showed.
 *
 * @module
 */

import { erc20Abi, formatUnits, parseUnits } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "./_chain_context.ts";
import type { ChainHex } from "./_order_types.ts";
import type { PlannedPayment, QuotedOrder, QuotedToken } from "./_quote_types.ts";

/**
 * The margin on the current gas price in the native-token check, in percent:
 * a price that rises a quarter between the check and the last transaction
 * is still covered.
 */
export const GAS_PRICE_MARGIN_PERCENT = 125n;

/** Parts that take the wallet's money (the datatoken an order spends was just obtained). */
const MONEY = (payment: PlannedPayment) => payment.part !== "datatoken";

/** What the orders take from the wallet, per token (lower-case address). */
export function totalsByToken(orders: readonly QuotedOrder[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const order of orders) {
    for (const tx of order.transactions) {
      for (const payment of tx.payments.filter(MONEY)) {
        const key = payment.token.toLowerCase();
        totals.set(key, (totals.get(key) ?? 0n) + payment.amount);
      }
    }
  }
  return totals;
}

/** The gas the orders' transactions may take together. */
export function totalGas(orders: readonly QuotedOrder[]): bigint {
  return orders.flatMap((order) => order.transactions).reduce((sum, tx) => sum + tx.gas, 0n);
}

/** A token amount in whole units with its symbol: `1.001 OCEAN`. */
export function amountText(
  amount: bigint,
  token: string,
  tokens: ReadonlyMap<string, QuotedToken>,
): string {
  const known = tokens.get(token.toLowerCase());
  return `${formatUnits(amount, known?.decimals ?? 18)} ${known?.symbol ?? token}`;
}

/**
 * Refuses an order whose total in any token is above `maxPrice`, naming
 * each part, before anything is sent.
 *
 * @param order The planned order.
 * @param maxPrice The cap in whole tokens, or undefined for none.
 * @param tokens Symbols and decimals.
 */
export function refuseAboveCap(
  order: QuotedOrder,
  maxPrice: string | undefined,
  tokens: ReadonlyMap<string, QuotedToken>,
): void {
  if (maxPrice === undefined) return;
  for (const [token, total] of totalsByToken([order])) {
    const decimals = tokens.get(token)?.decimals ?? 18;
    if (total <= parseUnits(maxPrice, decimals)) continue;
    const parts = order.transactions.flatMap((tx) => tx.payments)
      .filter((p) => MONEY(p) && p.token.toLowerCase() === token)
      .map((p) => `${p.part} ${amountText(p.amount, token, tokens)} to ${p.payee}`);
    throw new TidepoolError(
      `Cannot order${order.did ? ` ${order.did}` : ""}: it would take ${
        amountText(total, token, tokens)
      } from the wallet, above maxPrice ${maxPrice}`,
      {
        details: parts.join("; "),
        detailsLabel: "Parts",
        hint:
          "Nothing was sent. maxPrice caps everything an order takes in each token, fees included: raise it if you accept these parts",
      },
    );
  }
}

/**
 * Refuses a plan the wallet cannot fund, before its first transaction: each
 * token's total with all fees, and the native token for the gas of every
 * transaction at the current gas price with {@linkcode GAS_PRICE_MARGIN_PERCENT}.
 *
 * @param context The buyer's clients.
 * @param orders The orders about to be sent.
 * @param tokens Symbols and decimals.
 * @returns The gas price read, in wei.
 */
export async function refuseUnfunded(
  context: ChainContext,
  orders: readonly QuotedOrder[],
  tokens: ReadonlyMap<string, QuotedToken>,
): Promise<bigint> {
  const { reader, buyer } = context;
  const short: string[] = [];
  for (const [token, needed] of totalsByToken(orders)) {
    const held = await reader.readContract({
      address: token as ChainHex,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [buyer],
    });
    if (held < needed) {
      short.push(
        `${amountText(held, token, tokens)} held, ${amountText(needed, token, tokens)} needed`,
      );
    }
  }
  if (short.length > 0) {
    throw new TidepoolError(`Cannot order: insufficient balance: ${short.join("; ")}`, {
      hint: `Fund ${buyer} with the tokens named; nothing was sent`,
    });
  }
  const gasPrice = await reader.getGasPrice();
  const gas = totalGas(orders);
  const needed = gas * gasPrice * GAS_PRICE_MARGIN_PERCENT / 100n;
  const native = await reader.getBalance({ address: buyer });
  if (native < needed) {
    const count = orders.flatMap((order) => order.transactions).length;
    throw new TidepoolError(
      `Cannot order: not enough of the chain's native token for gas: ${
        formatUnits(native, 18)
      } held, up to ${
        formatUnits(needed, 18)
      } needed for ${count} transactions at the current gas price and a ${
        GAS_PRICE_MARGIN_PERCENT - 100n
      }% margin`,
      { hint: `Fund ${buyer} with the chain's native token; nothing was sent` },
    );
  }
  return gasPrice;
}

/**
 * Refuses to execute a quote the chain no longer matches: the same way of
 * obtaining the datatoken, and the same payments (part, token, amount,
 * payee). Approvals may differ (an allowance changed); payments may not.
 *
 * @param quoted The order as quoted.
 * @param now The order as planned again, in the lane.
 * @param tokens Symbols and decimals.
 */
export function refuseChanged(
  quoted: QuotedOrder,
  now: QuotedOrder,
  tokens: ReadonlyMap<string, QuotedToken>,
): void {
  const said = (order: QuotedOrder) =>
    [
      order.source,
      ...order.transactions.flatMap((tx) => tx.payments).map((p) =>
        `${p.part} ${amountText(p.amount, p.token, tokens)} to ${p.payee}`
      ),
    ].join("; ");
  const before = said(quoted);
  const after = said(now);
  if (before === after && quoted.datatoken === now.datatoken) return;
  throw new TidepoolError(
    `Cannot order${quoted.did ? ` ${quoted.did}` : ""}: the quote no longer matches the chain`,
    {
      details: `quoted: ${before}; now: ${after}`,
      detailsLabel: "Chain",
      hint: "Nothing was sent. Quote again, look at the new quote, and order with it",
    },
  );
}
