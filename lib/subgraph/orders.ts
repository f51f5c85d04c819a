/**
 * Ocean order history as a table: every `orders` entity of the subgraph
 * that matches, in time order.
 *
 * @module
 */

import { PAGED_READ_RULES, type PagedReadOptions } from "../paging/types.ts";
import { checkOptions, type OptionRules } from "../options/check_options.ts";
import type { ColumnTable } from "arquero";
import { TidepoolError } from "../errors/errors.ts";
import { type ColumnSpec, defineSchema, type TableSchema } from "../table/schema.ts";
import type { SubgraphContext } from "./_context.ts";
import { address, addresses, count, parseMaybeJson, unixSeconds } from "./_inputs.ts";
import { paginate, type PaginateOptions, paginateRows, type SubgraphRow } from "./paginate.ts";
import { buildTable } from "../table/build_table.ts";
import type { SubgraphInfo } from "./subgraph_info.ts";
import type { OrderRow } from "./rows.ts";

/** Filters of `Subgraph.orders` (and `orderPages`). Addresses may be in any letter case. */
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
  /**
   * The columns to read (names of {@linkcode orderSchema}); default all.
   * Fewer fields make a lighter query; `id` is always read.
   */
  fields?: readonly OrderField[];
}

/** One column of the order table and the subgraph fields it reads. */
interface OrderColumn {
  spec: ColumnSpec<SubgraphRow>;
  select: readonly string[];
}

/** A BigDecimal read as a number: see {@linkcode orderSchema} for the precision. */
const decimal = <N extends string>(name: N, field: string, description: string) => ({
  spec: { name, type: "number" as const, path: field, description },
  select: [field],
});

/** A reference to a User (an address) or a Token (its address and symbol). */
const user = <N extends string>(name: N, description: string) => ({
  spec: { name, type: "string" as const, path: `${name}.id`, description },
  select: [`${name}.id`],
});
const token = <N extends string>(name: N, description: string) =>
  [
    {
      spec: { name, type: "string" as const, path: `${name}.address`, description },
      select: [`${name}.address`],
    },
    {
      spec: {
        name: `${name}Symbol` as const,
        type: "string" as const,
        path: `${name}.symbol`,
        description: "Symbol of that token",
      },
      select: [`${name}.symbol`],
    },
  ] as const;

/**
 * The order table's columns in the order of ocean-subgraph's `Order` entity
 * (schema.graphql of oceanprotocol/ocean-subgraph); its two misspelt fields
 * (`publishingMarketAmmount`, `consumerMarketAmmount`) are read into
 * correctly spelt columns.
 */
const ORDER_COLUMNS = [
  {
    spec: {
      name: "id",
      type: "string",
      description: "Order id: transaction hash, datatoken and payer",
    },
    select: ["id"],
  },
  {
    spec: { name: "tx", type: "string", description: "Transaction hash of the order" },
    select: ["tx"],
  },
  {
    spec: {
      name: "createdAt",
      type: "date",
      path: "createdTimestamp",
      description: "Block time of the order",
    },
    select: ["createdTimestamp"],
  },
  {
    spec: { name: "block", type: "integer", description: "Block number of the order" },
    select: ["block"],
  },
  {
    spec: {
      name: "eventIndex",
      type: "integer",
      description: "Index of the order event in its transaction",
    },
    select: ["eventIndex"],
  },
  user("consumer", "Consumer address"),
  user("payer", "Address that paid"),
  {
    spec: {
      name: "datatoken",
      type: "string",
      get: (row) => readNested(row, "datatoken", "address") ?? readNested(row, "datatoken", "id"),
      description: "Datatoken address",
    },
    select: ["datatoken.id", "datatoken.address"],
  },
  {
    spec: {
      name: "datatokenSymbol",
      type: "string",
      path: "datatoken.symbol",
      description: "Datatoken symbol",
    },
    select: ["datatoken.symbol"],
  },
  decimal("amount", "amount", "Datatokens spent on the order (BigDecimal)"),
  {
    spec: {
      name: "serviceIndex",
      type: "integer",
      description: "Index of the ordered service in the DDO",
    },
    select: ["serviceIndex"],
  },
  user("nftOwner", "Owner of the data NFT when the order was made"),
  user("publishingMarket", "Address of the publishing market, null when none"),
  ...token("publishingMarketToken", "Token of the publish-market fee, null when none"),
  decimal("publishingMarketAmount", "publishingMarketAmmount", "Publish-market fee (BigDecimal)"),
  user("consumerMarket", "Address of the consume market, null when none"),
  ...token("consumerMarketToken", "Token of the consume-market fee, null when none"),
  decimal("consumerMarketAmount", "consumerMarketAmmount", "Consume-market fee (BigDecimal)"),
  {
    spec: {
      name: "providerFee",
      type: "object",
      get: (row) => parseMaybeJson(row.providerFee),
      description: "Provider fee: an object when the subgraph stored JSON, else its text, or null",
    },
    select: ["providerFee"],
  },
  {
    spec: {
      name: "providerFeeValidUntil",
      type: "date",
      // 0 is the contracts' "no expiry", not 1970.
      get: (row) => row.providerFeeValidUntil === "0" ? null : row.providerFeeValidUntil,
      description: "Until when the provider fee is valid (Unix time), null when it never expires",
    },
    select: ["providerFeeValidUntil"],
  },
  ...token("lastPriceToken", "Token the datatoken was last priced in"),
  decimal(
    "lastPriceValue",
    "lastPriceValue",
    "Last price of the datatoken in that token (BigDecimal)",
  ),
  decimal(
    "estimatedUSDValue",
    "estimatedUSDValue",
    "Order value in US dollars as the subgraph estimated it (BigDecimal)",
  ),
  decimal("gasUsed", "gasUsed", "Gas the order transaction used (BigDecimal)"),
  {
    spec: { name: "gasPrice", type: "bigint", description: "Gas price in wei (BigInt, exact)" },
    select: ["gasPrice"],
  },
  {
    spec: {
      name: "reuses",
      type: "integer",
      get: (row) => count(row.reuses),
      description: "Times the order was reused (counted up to 1,000)",
    },
    select: ["reuses(first: 1000).id"],
  },
] as const satisfies readonly OrderColumn[];

/** The names of the order table's columns, for the `fields` option. */
export type OrderField =
  | "id"
  | "tx"
  | "createdAt"
  | "block"
  | "eventIndex"
  | "consumer"
  | "payer"
  | "datatoken"
  | "datatokenSymbol"
  | "amount"
  | "serviceIndex"
  | "nftOwner"
  | "publishingMarket"
  | "publishingMarketToken"
  | "publishingMarketTokenSymbol"
  | "publishingMarketAmount"
  | "consumerMarket"
  | "consumerMarketToken"
  | "consumerMarketTokenSymbol"
  | "consumerMarketAmount"
  | "providerFee"
  | "providerFeeValidUntil"
  | "lastPriceToken"
  | "lastPriceTokenSymbol"
  | "lastPriceValue"
  | "estimatedUSDValue"
  | "gasUsed"
  | "gasPrice"
  | "reuses";

/**
 * The columns of the order table: every field of ocean-subgraph's `Order`.
 *
 * BigDecimal fields (`amount`, the market fees, `lastPriceValue`,
 * `estimatedUSDValue`, `gasUsed`) are numbers (IEEE 754 doubles): exact to
 * 15 significant digits, so an 18-decimal token amount keeps its first 15
 * digits and a sum of them is good to about 1e-15 relative. That is one
 * choice, made for analysis (sums, means, plots); `gasPrice`, a BigInt, is
 * an exact bigint.
 */
export const orderSchema: TableSchema<SubgraphRow, OrderRow> = defineSchema(
  ORDER_COLUMNS.map((column) => column.spec),
);

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
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const orders = await sg.orders({ since: "2024-01-01" });
 * console.log(orders.numRows());
 * ```
 */
export async function fetchOrders(
  context: SubgraphContext,
  options: OrdersOptions = {},
): Promise<ColumnTable> {
  // Async, so a bad option rejects rather than throws.
  return await paginate(context, orderRead(options));
}

/**
 * The order walk one page at a time, each page a table of the order
 * columns: for order histories that should not be held in memory (write
 * them with `writeDataset`, partitioned by month of `createdAt`).
 *
 * @param context The subgraph client state.
 * @param options The filters.
 * @returns The pages; when done, what the read saw (block, staleness, pages, rows).
 *
 * @example Orders by month into Parquet
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * import { writeDataset } from "../dataset/mod.ts";
 * const dir = await Deno.makeTempDir();
 * await writeDataset(sg.orderPages({ since: "2024-01-01" }), `${dir}/orders`, {
 *   partitionBy: [{ name: "month", value: (o: { createdAt: Date }) => o.createdAt.toISOString().slice(0, 7) }],
 * });
 * ```
 */
export async function* fetchOrderPages(
  context: SubgraphContext,
  options: OrdersOptions = {},
): AsyncGenerator<ColumnTable, SubgraphInfo> {
  const read = orderRead(options);
  const pages = paginateRows(context, read);
  let page = await pages.next();
  while (!page.done) {
    yield buildTable(read.schema!, page.value);
    page = await pages.next();
  }
  return page.value;
}

/** The keys of {@linkcode OrdersOptions}; each value is checked where it is read, with its own message. */
const ORDER_OPTION_RULES: OptionRules = {
  ...PAGED_READ_RULES,
  consumer: "any",
  payer: "any",
  datatoken: "any",
  since: "any",
  until: "any",
  orderBy: ["createdTimestamp", "id"],
  orderDirection: ["asc", "desc"],
  block: "any",
  minBlock: "any",
  fields: "any",
};

/** The paginate options of an order read. */
function orderRead(options: OrdersOptions): PaginateOptions {
  checkOptions("Subgraph.orders", options, ORDER_OPTION_RULES);
  const datatokens = addresses(options.datatoken, "datatoken");
  const where: Record<string, unknown> = {
    consumer: address(options.consumer, "consumer"),
    payer: address(options.payer, "payer"),
    createdTimestamp_gte: unixSeconds(options.since, "since"),
    createdTimestamp_lt: unixSeconds(options.until, "until"),
  };
  if (datatokens?.length === 1) where.datatoken = datatokens[0];
  else if (datatokens) where.datatoken_in = datatokens;
  const columns = chosenColumns(options.fields);
  return {
    entity: "orders",
    typeName: "Order",
    fields: [...new Set(columns.flatMap((column) => column.select))],
    where,
    orderBy: options.orderBy ?? "createdTimestamp",
    orderDirection: options.orderDirection,
    block: options.block,
    minBlock: options.minBlock,
    signal: options.signal,
    maxPages: options.maxPages,
    maxRows: options.maxRows,
    schema: options.fields ? defineSchema(columns.map((column) => column.spec)) : orderSchema,
    label: "orders",
  };
}

/** The columns named by the `fields` option (with `id`), in table order. */
function chosenColumns(fields: readonly string[] | undefined): readonly OrderColumn[] {
  if (fields === undefined) return ORDER_COLUMNS;
  const known = new Set<string>(ORDER_COLUMNS.map((column) => column.spec.name));
  const unknown = fields.filter((name) => !known.has(name));
  if (unknown.length > 0 || !Array.isArray(fields)) {
    throw new TidepoolError(`Unknown order fields: ${unknown.join(", ") || String(fields)}`, {
      hint: `Choose among ${[...known].join(", ")}`,
    });
  }
  const wanted = new Set(["id", ...fields]);
  return ORDER_COLUMNS.filter((column) => wanted.has(column.spec.name));
}
