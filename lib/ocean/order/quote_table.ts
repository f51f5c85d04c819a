/**
 * A quote as two tables: the transactions to be sent, and what leaves the
 * wallet per token with every fee and the gas.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { buildTable } from "../../table/build_table.ts";
import { defineSchema, type TableSchema } from "../../table/schema.ts";
import type { QuotedOrder, QuotedToken } from "./_quote_types.ts";

/** The columns of a quote's `transactions` table. */
export const QUOTE_TRANSACTION_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema(
  [
    { name: "step", type: "integer", description: "The transaction's place in the quote, from 1" },
    { name: "did", type: "string", description: "The asset ordered" },
    { name: "serviceId", type: "string", description: "The service ordered" },
    {
      name: "action",
      type: "string",
      description: "approve, buy (the exchange's buyDT), dispense or startOrder",
    },
    { name: "contract", type: "string", description: "The contract the transaction is sent to" },
    {
      name: "part",
      type: "string",
      description:
        "What the row's amount is: price (with the exchange's swap fees), provider fee, publish market fee, datatoken (the one the order spends), allowance (an approval: moves nothing) or none",
    },
    { name: "token", type: "string", description: "The token of the amount" },
    { name: "symbol", type: "string", description: "The token's symbol" },
    { name: "amount", type: "string", description: "The amount in whole tokens (exact decimal)" },
    {
      name: "payee",
      type: "string",
      description:
        "Who receives it: the exchange, the provider fee address, the market's fee address (the spender for an allowance)",
    },
    {
      name: "gas",
      type: "integer",
      description: "The most gas the transaction may take (on its first row)",
    },
  ] as const,
);

/** The columns of a quote's `totals` table. */
export const QUOTE_TOTAL_COLUMNS: TableSchema<Record<string, unknown>> = defineSchema(
  [
    { name: "token", type: "string", description: "The token, or `native` for the gas" },
    { name: "symbol", type: "string", description: "The token's symbol" },
    {
      name: "amount",
      type: "string",
      description: "What leaves the wallet in whole tokens, every fee included (gas: at most)",
    },
    { name: "parts", type: "string", description: "What the amount is made of" },
  ] as const,
);

/** Formats base units as whole tokens, exactly: `1001000000000000000n, 18` -> `1.001`. */
export function wholeUnits(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const sign = amount < 0n ? "-" : "";
  const abs = amount < 0n ? -amount : amount;
  const fraction = (abs % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${sign}${abs / scale}${fraction ? `.${fraction}` : ""}`;
}

/**
 * The two tables of a quote.
 *
 * @param orders The planned orders.
 * @param tokens Symbols and decimals by lower-case address.
 * @param gasPrice The gas price read, in wei.
 * @param marginPercent The margin on the gas price in the gas total (125: 25% more).
 * @returns The transactions and the totals.
 */
export function quoteTables(
  orders: readonly QuotedOrder[],
  tokens: ReadonlyMap<string, QuotedToken>,
  gasPrice: bigint,
  marginPercent: bigint,
): { transactions: ColumnTable; totals: ColumnTable } {
  const token = (address: string) => tokens.get(address.toLowerCase());
  const rows: Record<string, unknown>[] = [];
  const totals = new Map<string, { amount: bigint; parts: Map<string, bigint> }>();
  let step = 0;
  let gas = 0n;
  for (const order of orders) {
    for (const tx of order.transactions) {
      step++;
      gas += tx.gas;
      const base = {
        step,
        did: order.did ?? null,
        serviceId: order.serviceId ?? null,
        action: tx.action,
        contract: tx.contract,
      };
      const moves = tx.allowance
        ? [{ part: "allowance", ...tx.allowance, payee: tx.allowance.spender }]
        : tx.payments;
      if (moves.length === 0) {
        rows.push({ ...base, part: "none", gas: Number(tx.gas) });
        continue;
      }
      moves.forEach((move, i) => {
        const known = token(move.token);
        rows.push({
          ...base,
          part: move.part,
          token: move.token,
          symbol: known?.symbol ?? null,
          amount: wholeUnits(move.amount, known?.decimals ?? 18),
          payee: move.payee,
          gas: i === 0 ? Number(tx.gas) : null,
        });
        if (move.part === "allowance" || move.part === "datatoken") return;
        const key = move.token.toLowerCase();
        const total = totals.get(key) ?? { amount: 0n, parts: new Map() };
        total.amount += move.amount;
        total.parts.set(move.part, (total.parts.get(move.part) ?? 0n) + move.amount);
        totals.set(key, total);
      });
    }
  }
  const totalRows: Record<string, unknown>[] = [...totals].map(([address, total]) => {
    const known = token(address);
    const decimals = known?.decimals ?? 18;
    return {
      token: address,
      symbol: known?.symbol ?? null,
      amount: wholeUnits(total.amount, decimals),
      parts: [...total.parts].map(([part, amount]) => `${part} ${wholeUnits(amount, decimals)}`)
        .join(" + "),
    };
  });
  totalRows.push({
    token: "native",
    symbol: "native",
    amount: wholeUnits(gas * gasPrice * marginPercent / 100n, 18),
    parts: `gas: at most ${gas} for ${step} transaction${step === 1 ? "" : "s"} at ${
      wholeUnits(gasPrice, 9)
    } gwei, ${marginPercent - 100n}% margin`,
  });
  return {
    transactions: buildTable(QUOTE_TRANSACTION_COLUMNS, rows),
    totals: buildTable(QUOTE_TOTAL_COLUMNS, totalRows),
  };
}
