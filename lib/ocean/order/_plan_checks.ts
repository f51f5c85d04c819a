/**
 * The checks a plan passes before its first transaction: the cap over
 * everything that leaves the wallet, the funds for the whole plan (every
 * token with all fees, and native gas for every transaction at the current
 * price with a margin), and, when a quote is executed, that the chain still
 * says what the quote showed.
 *
 * @module
 */

import { erc20Abi, formatUnits } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "./_chain_context.ts";
import type { PriceCap } from "./_max_price.ts";
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
 * Refuses a plan whose total in any token is above its cap, or that pays in
 * a token nothing caps, naming each part, before anything is sent. The cap
 * holds for the whole plan (every order of a compute job together). An
 * amount alone caps the token the chain's exchange prices the datatokens in
 * (the orders' `price` parts, one token); amounts per token address cap
 * those tokens. Without a cap, only the `price` parts are paid (the
 * datatoken's price as the chain's exchange lists it): any other payment
 * above zero (a provider fee, a market fee) is refused until a cap allows
 * it.
 *
 * @param orders The planned orders of one call.
 * @param cap The cap (from `priceCap`), or undefined for none given.
 * @param tokens Symbols and decimals.
 */
export function refuseAboveCap(
  orders: readonly QuotedOrder[],
  cap: PriceCap | undefined,
  tokens: ReadonlyMap<string, QuotedToken>,
): void {
  const payments = orders.flatMap((order) =>
    order.transactions.flatMap((tx) => tx.payments).filter(MONEY).map((payment) => ({
      ...payment,
      asset: order.did ?? order.datatoken,
    }))
  );
  const named = (list: typeof payments, token: string) =>
    list.filter((p) => p.token.toLowerCase() === token)
      .map((p) =>
        `${orders.length > 1 ? `${p.asset} ` : ""}${p.part} ${
          amountText(p.amount, token, tokens)
        } to ${p.payee}`
      ).join("; ");
  const single = orders.length === 1 && orders[0].did ? ` ${orders[0].did}` : "";
  const what = orders.length > 1 ? ` (${orders.length} orders together)` : "";
  if (cap === undefined) {
    const unlisted = payments.filter((p) => p.part !== "price" && p.amount > 0n);
    if (unlisted.length === 0) return;
    const fees = [...new Set(unlisted.map((p) => p.token.toLowerCase()))];
    throw new TidepoolError(
      `Cannot order${single}: it would pay ${
        unlisted.map((p) => `${p.part} ${amountText(p.amount, p.token, tokens)}`).join(", ")
      } beyond the datatoken's listed price, and no maxPrice was given`,
      {
        details: fees.map((token) => named(payments, token)).join("; "),
        detailsLabel: "Parts",
        hint:
          `Nothing was sent. Without maxPrice only the datatoken's price is paid; quote first to see every part, then give the most you accept per token: maxPrice: { ${
            [...new Set([...payments.map((p) => p.token.toLowerCase())])]
              .map((t) => `"${t}": "…"`).join(", ")
          } }`,
      },
    );
  }
  const priceTokens = [
    ...new Set(payments.filter((p) => p.part === "price").map((p) => p.token.toLowerCase())),
  ];
  const priceToken = priceTokens.length === 1 ? priceTokens[0] : undefined;
  const caps = new Map<string, string>(
    typeof cap === "string" ? (priceToken ? [[priceToken, cap]] : []) : Object.entries(cap),
  );
  for (const [token, total] of totalsByToken(orders)) {
    const parts = named(payments, token);
    const limit = caps.get(token);
    if (limit === undefined) {
      throw new TidepoolError(
        `Cannot order${single}: it would pay ${
          amountText(total, token, tokens)
        }${what} (token ${token}), a token maxPrice does not cap`,
        {
          details: parts,
          detailsLabel: "Parts",
          hint: `Nothing was sent. ${
            typeof cap !== "string"
              ? "maxPrice caps only the tokens it names"
              : priceToken
              ? `maxPrice "${cap}" caps only the token the datatoken is priced in (${
                tokens.get(priceToken)?.symbol ?? priceToken
              })`
              : priceTokens.length > 1
              ? `maxPrice "${cap}" cannot say which of the ${priceTokens.length} tokens the datatokens are priced in it caps`
              : `maxPrice "${cap}" caps only the token a datatoken is priced in, and this order buys none`
          }; if you accept these parts, cap each token by its address: maxPrice: { ${
            [...new Set([...caps.keys(), ...priceTokens, token])].map((t) =>
              `"${t}": "${caps.get(t) ?? "…"}"`
            ).join(", ")
          } }`,
        },
      );
    }
    const decimals = tokens.get(token)?.decimals ?? 18;
    if (total <= capUnits(limit, decimals)) continue;
    throw new TidepoolError(
      `Cannot order${single}: it would take ${
        amountText(total, token, tokens)
      } from the wallet${what}, above maxPrice ${limit}`,
      {
        details: parts,
        detailsLabel: "Parts",
        hint:
          "Nothing was sent. maxPrice caps everything one call takes in each token, fees and every order of a compute job included: raise it if you accept these parts",
      },
    );
  }
}

/**
 * A cap in whole tokens as base units, rounded down: digits past the
 * token's decimals can only lower what is allowed (viem's `parseUnits`
 * rounds them half up, which would let an order take more than the cap).
 *
 * @param maxPrice The cap as decimal text (`"1.5"`, checked by `priceCap`).
 * @param decimals The token's decimals.
 * @returns The most the order may take, in base units.
 */
export function capUnits(maxPrice: string, decimals: number): bigint {
  const [whole, fraction = ""] = maxPrice.split(".");
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, "0"));
}

/**
 * Refuses a plan the wallet cannot fund, before its first transaction: each
 * token's total with all fees (a datatoken the wallet already holds counted
 * with any fee in it), and the native token for the gas of every
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
  const needs = totalsByToken(orders);
  // An order of a datatoken already held spends one of the wallet's own; a
  // fee in that datatoken comes on top (bought or dispensed ones arrive first).
  for (const order of orders.filter((o) => o.source === "held")) {
    const key = order.datatoken.toLowerCase();
    needs.set(key, (needs.get(key) ?? 0n) + 10n ** 18n);
  }
  for (const [token, needed] of needs) {
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
