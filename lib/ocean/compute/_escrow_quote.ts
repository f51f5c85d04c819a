/**
 * A compute quote with its escrow part: the payer's escrow read live, the
 * plan (deposit, authorization, the node's lock), the cap of the whole job
 * checked, and the escrow's rows added to the quote's tables.
 *
 * @module
 */

import { buildTable } from "../../table/build_table.ts";
import { onChain } from "../order/_chain_errors.ts";
import type { PriceCap } from "../order/_max_price.ts";
import type { OrderAccount } from "../order/_order_types.ts";
import { GAS_PRICE_MARGIN_PERCENT } from "../order/_plan_checks.ts";
import type { OrderQuote } from "../order/_quote_types.ts";
import {
  QUOTE_TOTAL_COLUMNS,
  QUOTE_TRANSACTION_COLUMNS,
  wholeUnits,
} from "../order/quote_table.ts";
import type { EscrowTerms } from "./_escrow_charge.ts";
import {
  type ComputeEscrowQuote,
  escrowGas,
  escrowRows,
  planEscrow,
  refuseEscrowAboveCap,
} from "./_escrow_plan.ts";

/**
 * The escrow plan of a job, read live and checked against the cap.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param account The payer.
 * @param terms The node's terms.
 * @param orders The quote of the job's orders.
 * @param cap The job's cap.
 * @returns The escrow plan.
 */
export async function quoteEscrow(
  rpcUrl: string,
  account: OrderAccount,
  terms: EscrowTerms,
  orders: OrderQuote,
  cap: PriceCap | undefined,
): Promise<ComputeEscrowQuote> {
  const { chainContext } = await import("../order/_chain_context.ts");
  const { readEscrowState } = await import("./_escrow_pay_chain.ts");
  const context = chainContext(rpcUrl, terms.chainId, account);
  const state = await onChain(
    rpcUrl,
    "read the escrow",
    () => readEscrowState(context.reader, terms, context.buyer),
  );
  const plan = planEscrow(terms, state);
  refuseEscrowAboveCap(orders.orders, plan, cap, orders.tokens);
  return plan;
}

/**
 * The quote's tables with the escrow's rows: its transactions after the
 * orders', the deposit in its token's total and its gas in the native total.
 *
 * @param quote The orders' quote.
 * @param escrow The escrow plan.
 * @returns The two tables.
 */
export function withEscrowTables(
  quote: OrderQuote,
  escrow: ComputeEscrowQuote,
): Pick<OrderQuote, "transactions" | "totals" | "tokens"> {
  const decimals = escrow.tokenInfo.decimals;
  const units = (amount: bigint) => wholeUnits(amount, decimals);
  const rows = escrowRows(escrow, quote.transactions.numRows(), units);
  const transactions = quote.transactions.concat(buildTable(QUOTE_TRANSACTION_COLUMNS, rows));
  const token = escrow.token.toLowerCase();
  const totals = quote.totals.objects() as Record<string, unknown>[];
  const part = `escrow deposit ${units(escrow.deposit)} (job price ${units(escrow.amount)}, ${
    units(escrow.amount - escrow.deposit)
  } of it already free in the escrow)`;
  const row = totals.find((t) => t.token === token);
  if (row) {
    row.amount = units(toUnits(String(row.amount), decimals) + escrow.deposit);
    row.parts = `${row.parts} + ${part}`;
  } else {
    totals.splice(totals.length - 1, 0, {
      token,
      symbol: escrow.tokenInfo.symbol,
      amount: units(escrow.deposit),
      parts: part,
    });
  }
  const native = totals[totals.length - 1];
  const gas = escrowGas(escrow);
  if (gas > 0n && native?.token === "native") {
    const before = toUnits(String(native.amount), 18);
    const price = quote.gasPrice * GAS_PRICE_MARGIN_PERCENT / 100n;
    native.amount = wholeUnits(before + gas * price, 18);
    native.parts = `${native.parts}; escrow: at most ${gas} more`;
  }
  const tokens = new Map(quote.tokens).set(token, escrow.tokenInfo);
  return { transactions, totals: buildTable(QUOTE_TOTAL_COLUMNS, totals), tokens };
}

/** Whole tokens (exact decimal text) as base units. */
function toUnits(text: string, decimals: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole + fraction.padEnd(decimals, "0").slice(0, decimals));
}
