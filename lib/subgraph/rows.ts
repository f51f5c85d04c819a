/**
 * Row types of the subgraph tables, for typed row access (`rows(table, orderSchema)`).
 *
 * @module
 */

import type { RecordRow } from "../table/schema.ts";
import type { TokenRecord } from "./token.ts";

/**
 * One row of the orders table (`Subgraph.orders`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface OrderRow {
  /** Order id: transaction hash, datatoken and payer */
  id: string | null;
  /** Transaction hash of the order */
  tx: string | null;
  /** Block time of the order */
  createdAt: Date | null;
  /** Block number of the order */
  block: number | null;
  /** Index of the order event in its transaction */
  eventIndex: number | null;
  /** Consumer address */
  consumer: string | null;
  /** Address that paid */
  payer: string | null;
  /** Datatoken address */
  datatoken: string | null;
  /** Datatoken symbol */
  datatokenSymbol: string | null;
  /** Datatokens spent on the order (BigDecimal) */
  amount: number | null;
  /** Index of the ordered service in the DDO */
  serviceIndex: number | null;
  /** Owner of the data NFT when the order was made */
  nftOwner: string | null;
  /** Address of the publishing market, null when none */
  publishingMarket: string | null;
  /** Token of the publish-market fee, null when none */
  publishingMarketToken: string | null;
  /** Symbol of that token */
  publishingMarketTokenSymbol: string | null;
  /** Publish-market fee (BigDecimal) */
  publishingMarketAmount: number | null;
  /** Address of the consume market, null when none */
  consumerMarket: string | null;
  /** Token of the consume-market fee, null when none */
  consumerMarketToken: string | null;
  /** Symbol of that token */
  consumerMarketTokenSymbol: string | null;
  /** Consume-market fee (BigDecimal) */
  consumerMarketAmount: number | null;
  /** Provider fee: an object when the subgraph stored JSON, else its text, or null */
  providerFee: unknown | null;
  /** Until when the provider fee is valid (Unix time), null when it never expires */
  providerFeeValidUntil: Date | null;
  /** Token the datatoken was last priced in */
  lastPriceToken: string | null;
  /** Symbol of that token */
  lastPriceTokenSymbol: string | null;
  /** Last price of the datatoken in that token (BigDecimal) */
  lastPriceValue: number | null;
  /** Order value in US dollars as the subgraph estimated it (BigDecimal) */
  estimatedUSDValue: number | null;
  /** Gas the order transaction used (BigDecimal) */
  gasUsed: number | null;
  /** Gas price in wei (BigInt, exact) */
  gasPrice: bigint | null;
  /** Times the order was reused (counted up to 1,000) */
  reuses: number | null;
}

/**
 * One row of the tokens table (`Subgraph.tokens`): the fields of a
 * {@linkcode TokenRecord} (what `Subgraph.token` gives), one column each,
 * null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export type TokenRow = RecordRow<TokenRecord>;

/**
 * One row of the NFT updates table (`Subgraph.nftUpdates`): one property per column, null where the value is missing.
 * Checked against the column schema by `deno check`, so it cannot drift.
 */
export interface NftUpdateRow {
  /** Update id: transaction and NFT */
  id: string | null;
  /** Data NFT address */
  nft: string | null;
  /** Current owner of the NFT */
  owner: string | null;
  /** Transaction hash */
  tx: string | null;
  /** Block time of the update */
  timestamp: Date | null;
  /** METADATA_CREATED, METADATA_UPDATED, STATE_UPDATED or TOKENURI_UPDATED */
  type: string | null;
}
