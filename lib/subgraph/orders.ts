/**
 * Ocean order history as a table: every `orders` entity of the subgraph
 * that matches, in time order.
 *
 * @module
 */

import type { PagedReadOptions } from "../paging/types.ts";
import type { ColumnTable } from "arquero";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import type { SubgraphContext } from "./_context.ts";
import { address, addresses, count, parseMaybeJson, unixSeconds } from "./_inputs.ts";
import { paginate, type SubgraphRow } from "./paginate.ts";

/** Filters of {@linkcode fetchOrders}. Addresses may be in any letter case. */
export interface OrdersOptions extends PagedReadOptions {
  /** Orders consumed by this address. */
  consumer?: string;
  /** Orders paid by this address. */
  payer?: string;
  /** Orders of this datatoken, or of any of these. */
  datatoken?: string | readonly string[];
  /** Orders created at or after this time (Date, ISO string or Unix time). */
  since?: Date | string | number;
  /** Orders created before this time. */
  until?: Date | string | number;
  /** Sort field; default `createdTimestamp` (ties in id order). */
  orderBy?: "createdTimestamp" | "id";
  /** Sort direction; default `asc`. */
  orderDirection?: "asc" | "desc";
  /** Pin to this block; default the subgraph's head. */
  block?: number;
  /** Throw instead of warning when the subgraph is stale or below this block. */
  minBlock?: number;
}

/** The fields read for each order. */
export const ORDER_FIELDS: readonly string[] = [
  "id",
  "tx",
  "createdTimestamp",
  "consumer.id",
  "payer.id",
  "datatoken.id",
  "datatoken.address",
  "datatoken.symbol",
  "consumerMarketToken.address",
  "consumerMarketToken.symbol",
  "serviceIndex",
  "providerFee",
  "reuses(first: 1000).id",
];

/** The columns of the order table. */
export const orderSchema: TableSchema<SubgraphRow> = defineSchema([
  { name: "id", type: "string", description: "Order id: transaction hash, datatoken and payer" },
  { name: "tx", type: "string", description: "Transaction hash of the order" },
  {
    name: "createdAt",
    type: "date",
    path: "createdTimestamp",
    description: "Block time of the order",
  },
  { name: "consumer", type: "string", path: "consumer.id", description: "Consumer address" },
  { name: "payer", type: "string", path: "payer.id", description: "Address that paid" },
  {
    name: "datatoken",
    type: "string",
    get: (row) => readNested(row, "datatoken", "address") ?? readNested(row, "datatoken", "id"),
    description: "Datatoken address",
  },
  {
    name: "datatokenSymbol",
    type: "string",
    path: "datatoken.symbol",
    description: "Datatoken symbol",
  },
  {
    name: "consumerMarketToken",
    type: "string",
    path: "consumerMarketToken.address",
    description: "Token of the consume-market fee, null when none",
  },
  {
    name: "consumerMarketTokenSymbol",
    type: "string",
    path: "consumerMarketToken.symbol",
    description: "Symbol of that token",
  },
  {
    name: "serviceIndex",
    type: "integer",
    description: "Index of the ordered service in the DDO",
  },
  {
    name: "providerFee",
    type: "object",
    get: (row) => parseMaybeJson(row.providerFee),
    description: "Provider fee: an object when the subgraph stored JSON, else its text, or null",
  },
  {
    name: "reuses",
    type: "integer",
    get: (row) => count(row.reuses),
    description: "Times the order was reused (counted up to 1,000)",
  },
]);

function readNested(row: SubgraphRow, key: string, field: string): unknown {
  const value = row[key];
  return value && typeof value === "object" ? (value as SubgraphRow)[field] : undefined;
}

/**
 * Reads every matching order.
 *
 * @param context The subgraph client state.
 * @param options The filters.
 * @returns The order table (columns of {@linkcode orderSchema}).
 *
 * @example Orders of one consumer in 2026
 * ```ts ignore
 * const orders = await sg.orders({ consumer: "0xAbC...", since: "2026-01-01" });
 * ```
 */
export function fetchOrders(
  context: SubgraphContext,
  options: OrdersOptions = {},
): Promise<ColumnTable> {
  const datatokens = addresses(options.datatoken, "datatoken");
  const where: Record<string, unknown> = {
    consumer: address(options.consumer, "consumer"),
    payer: address(options.payer, "payer"),
    createdTimestamp_gte: unixSeconds(options.since, "since"),
    createdTimestamp_lt: unixSeconds(options.until, "until"),
  };
  if (datatokens?.length === 1) where.datatoken = datatokens[0];
  else if (datatokens) where.datatoken_in = datatokens;
  return paginate(context, {
    entity: "orders",
    typeName: "Order",
    fields: ORDER_FIELDS,
    where,
    orderBy: options.orderBy ?? "createdTimestamp",
    orderDirection: options.orderDirection,
    block: options.block,
    minBlock: options.minBlock,
    signal: options.signal,
    maxPages: options.maxPages,
    maxRows: options.maxRows,
    schema: orderSchema,
    label: "orders",
  });
}
