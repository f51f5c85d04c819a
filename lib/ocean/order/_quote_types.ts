/**
 * The contract of a quote: what an order (or the orders of a paid compute
 * job) will send and pay, read live from the node and the chain, before
 * anything is signed. Ordering executes a quote; these types carry no viem.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { ChainHex, DatatokenOrder, OrderProviderFee, PaymentPart } from "./_order_types.ts";

/** One amount that leaves the wallet. */
export interface PlannedPayment {
  /** What it pays: the datatoken's price (with the exchange's swap fees), a fee, or the datatoken itself. */
  part: PaymentPart;
  /** The token paid. */
  token: ChainHex;
  /** The amount, in the token's base units. */
  amount: bigint;
  /** Who receives it: the exchange, the provider fee address, the market's fee address. */
  payee: ChainHex;
}

/** One transaction to be sent. */
export interface PlannedTransaction {
  /** What it is. */
  action: "approve" | "buy" | "dispense" | "startOrder";
  /** The contract it is sent to. */
  contract: ChainHex;
  /** Gas it may take at most (generous: a wallet that passes can pay). */
  gas: bigint;
  /**
   * For an approval: the token and how much the spender may take (moves
   * nothing); `restores`: it gives back the allowance the wallet had before
   * the order set it to exactly what its `startOrder` takes; `had`: what
   * the wallet allowed before the order, set back after a stop or a failure.
   */
  allowance?: {
    token: ChainHex;
    spender: ChainHex;
    amount: bigint;
    restores?: boolean;
    had?: bigint;
  };
  /** For a purchase: the exchange's id of the datatoken's offer. */
  exchangeId?: ChainHex;
  /** What the transaction takes from the wallet. */
  payments: PlannedPayment[];
}

/** The plan of one order, as read live from the node and the chain. */
export interface QuotedOrder {
  /** The asset, when the order is for a DDO's service. */
  did?: string;
  /** The service, when the order is for a DDO's service. */
  serviceId?: string;
  /** The service's index in the DDO. */
  serviceIndex: number;
  /** The datatoken ordered (the DDO's, checked against the node and the chain). */
  datatoken: ChainHex;
  /** Who the order is for. */
  consumer: ChainHex;
  /**
   * How the datatoken is obtained; `reused`: an earlier order still stands
   * and nothing is sent.
   */
  source: DatatokenOrder["source"];
  /** The earlier order, when reused. */
  reused?: DatatokenOrder;
  /** The signed provider fee the order pays. */
  providerFee: OrderProviderFee;
  /** The service's timeout in seconds, for the reuse check; undefined: never reuse. */
  reuseWithinSeconds?: number;
  /** Blocks per log request of the reuse check. */
  logRangeBlocks?: number;
  /** The transactions, in order. */
  transactions: PlannedTransaction[];
}

/** A token a quote pays in, for display. */
export interface QuotedToken {
  /** Its symbol, as the token says. */
  symbol: string;
  /** Its decimals. */
  decimals: number;
}

/**
 * What an order or a paid compute job will send and pay, from live reads
 * only. Show `transactions` and `totals` to the user; pass the quote to
 * `orderAsset` (or `startCompute`) to execute exactly it.
 */
export interface OrderQuote {
  /** The chain. */
  readonly chainId: number;
  /** The wallet that pays and signs. */
  readonly buyer: ChainHex;
  /** When the quote was read. */
  readonly quotedAt: Date;
  /** When its first provider fee expires; null when none expires. After it, the quote is refused. */
  readonly validUntil: Date | null;
  /** The orders, in the order they are sent. */
  readonly orders: readonly QuotedOrder[];
  /** Tokens by address (lower case): symbol and decimals. */
  readonly tokens: ReadonlyMap<string, QuotedToken>;
  /** Gas price read for the quote, in wei. */
  readonly gasPrice: bigint;
  /**
   * One row per transaction, and a further row for each further payment of
   * one transaction (columns of `QUOTE_TRANSACTION_COLUMNS`).
   */
  readonly transactions: ColumnTable;
  /** What leaves the wallet per token, every fee included, and the gas (`QUOTE_TOTAL_COLUMNS`). */
  readonly totals: ColumnTable;
}

/**
 * An order checked and ready to send: its quote, what it will cost and how
 * the datatoken is obtained. Nothing has been sent yet; `send()` executes
 * the quote.
 */
export interface PreparedOrder {
  /** What the order will send and pay. */
  quote: OrderQuote;
  /** How the datatoken will be obtained (`reused`: an earlier order stands, nothing is sent). */
  source: DatatokenOrder["source"];
  /** What the datatoken costs in the exchange's base token (swap fees included), in its base units; 0n when free. */
  price: bigint;
  /** The exchange's base token, for priced datatokens. */
  baseToken?: ChainHex;
  /** Decimals of the base token (18 when free). */
  priceDecimals: number;
  /** The provider fee's token. */
  feeToken: ChainHex;
  /** The provider fee, in base units of `feeToken`. */
  feeAmount: bigint;
  /** The buyer, who signs and pays. */
  buyer: ChainHex;
  /** The buyer's balance of a token now, in its base units. */
  balanceOf(token: ChainHex): Promise<bigint>;
  /** Executes the quote (or returns the reused order) and waits for the receipts. */
  send(): Promise<DatatokenOrder>;
}
