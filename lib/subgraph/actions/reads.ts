/**
 * The Ocean subgraph's reads as free functions of the client (viem's
 * actions): `orders(subgraph, options)`. `Subgraph`'s methods of the same
 * names call these; each loads the code that does the work on its first
 * call, so importing tidepool stays quick (bench/import_bench.ts).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { checkOptions, type OptionRules } from "../../options/check_options.ts";
import { PAGED_READ_RULES } from "../../paging/types.ts";
import { ProtocolError } from "../../errors/errors.ts";
import { lazyPages } from "../../paging/lazy_pages.ts";
import { pagesWithProvenance, withProvenance } from "../../table/with_provenance.ts";
import { contextOf, type SubgraphHandle } from "../_subgraph_handle.ts";
import { META_SELECTION } from "../_document.ts";
import { runQuery } from "../_query.ts";
import { readMeta } from "../_staleness.ts";
import type { WhereFilter } from "../_where.ts";
import type { NftUpdatesOptions } from "../nft_updates.ts";
import type { OpcRecord } from "../opc.ts";
import type { OrdersOptions } from "../orders.ts";
import type { PaginateOptions } from "../paginate.ts";
import type { SubgraphInfo, SubgraphMeta } from "../subgraph_info.ts";
import type { TokenRecord } from "../token.ts";
import type { TokensOptions } from "../tokens.ts";

/** Runs a table call with its provenance; the block it read at is its "as of". */
function subgraphTable(
  subgraph: SubgraphHandle,
  call: { operation: string; params: Record<string, unknown> },
  run: () => Promise<ColumnTable>,
): Promise<ColumnTable> {
  const { operation, params } = call;
  return withProvenance({ service: subgraph.url, operation: `Subgraph.${operation}`, params }, run);
}

/**
 * Sends a GraphQL query, as {@linkcode Subgraph.query} does.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param document The query text; pass values in `variables`, never in the text.
 * @param options `variables`, the values the query names.
 * @returns The `data` of the answer.
 * @example Two tokens
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { query } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const data = await query(sg, "query ($n: Int) { tokens(first: $n) { id } }", {
 *   variables: { n: 2 },
 * });
 * console.log(data);
 * ```
 */
export async function query<T = Record<string, unknown>>(
  subgraph: SubgraphHandle,
  document: string,
  options: { variables?: Record<string, unknown> } = {},
): Promise<T> {
  const context = contextOf(subgraph);
  return await runQuery<T>(context.http, context.url, document, options.variables ?? {});
}

/**
 * Reads `_meta`, as {@linkcode Subgraph.meta} does.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @returns The indexed block, indexing errors and deployment.
 * @example The indexed block
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { meta } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await meta(sg)).block);
 * ```
 */
export async function meta(subgraph: SubgraphHandle): Promise<SubgraphMeta> {
  const data = await contextOf(subgraph).send(
    `query tidepoolMeta { _meta { ${META_SELECTION} } }`,
  );
  const meta = readMeta(data._meta);
  if (!meta) {
    throw new ProtocolError(`Subgraph answered _meta without a block number: ${subgraph.url}`, {
      details: JSON.stringify(data._meta ?? null),
      hint: "The endpoint may not be a subgraph served by graph-node",
    });
  }
  return meta;
}

/**
 * Reads every row of an entity into a table, as {@linkcode Subgraph.paginate} does.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param options The entity, fields, filter, order and block.
 * @returns The table; `subgraphInfo(table)` tells its block and staleness.
 * @example Tokens with their owner
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { paginate } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const table = await paginate(sg, { entity: "tokens", fields: ["id", "symbol", "nft.owner.id"] });
 * console.log(table.numRows());
 * ```
 */
export async function paginate(
  subgraph: SubgraphHandle,
  options: PaginateOptions,
): Promise<ColumnTable> {
  // The schema is code (accessors), not a parameter of the query.
  checkOptions("Subgraph.paginate", options, PAGINATE_OPTION_RULES);
  const context = contextOf(subgraph);
  const { schema: _schema, ...params } = options;
  return await subgraphTable(
    subgraph,
    { operation: "paginate", params },
    async () => (await import("../paginate.ts")).paginate(context, options),
  );
}

/**
 * Every matching order, in time order, as {@linkcode Subgraph.orders} reads them.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param options Filters by consumer, payer, datatoken and time.
 * @returns The order table.
 * @example Orders since a date
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { orders } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await orders(sg, { since: "2024-01-01" })).numRows());
 * ```
 */
export async function orders(
  subgraph: SubgraphHandle,
  options: OrdersOptions = {},
): Promise<ColumnTable> {
  const context = contextOf(subgraph);
  return await subgraphTable(
    subgraph,
    { operation: "orders", params: { ...options } },
    async () => (await import("../orders.ts")).fetchOrders(context, options),
  );
}

/**
 * The order walk one page at a time, as {@linkcode Subgraph.orderPages} gives it.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param options As for `orders`.
 * @returns The pages, each a table with its own provenance; when done, the read's block.
 * @example Page by page
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { orderPages } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * for await (const page of orderPages(sg, { since: "2024-01-01" })) console.log(page.numRows());
 * ```
 */
export function orderPages(
  subgraph: SubgraphHandle,
  options: OrdersOptions = {},
): AsyncGenerator<ColumnTable, SubgraphInfo> {
  return pagesWithProvenance(
    { service: subgraph.url, operation: "Subgraph.orderPages", params: { ...options } },
    lazyPages(async () =>
      (await import("../orders.ts")).fetchOrderPages(contextOf(subgraph), options)
    ),
  );
}

/**
 * Every token matching a filter, in id order, as {@linkcode Subgraph.tokens} reads them.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param where The filter, e.g. `{ isDatatoken: true }`.
 * @param options The block and minimum block.
 * @returns The token table.
 * @example Datatokens
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { tokens } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await tokens(sg, { isDatatoken: true })).numRows());
 * ```
 */
export async function tokens(
  subgraph: SubgraphHandle,
  where: WhereFilter = {},
  options: TokensOptions = {},
): Promise<ColumnTable> {
  checkOptions("Subgraph.tokens", options, { ...PAGED_READ_RULES, ...BLOCK_OPTION_RULES });
  const context = contextOf(subgraph);
  return await subgraphTable(
    subgraph,
    { operation: "tokens", params: { where, ...options } },
    async () => (await import("../tokens.ts")).fetchTokens(context, where, options),
  );
}

/**
 * One token by address, as {@linkcode Subgraph.token} reads it.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param id The token address, any letter case.
 * @param options The block and minimum block.
 * @returns The token, or null when the subgraph does not know it.
 * @example An unknown address
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { token } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log(await token(sg, "0x" + "00".repeat(20)));
 * ```
 */
export async function token(
  subgraph: SubgraphHandle,
  id: string,
  options: { block?: number; minBlock?: number } = {},
): Promise<TokenRecord | null> {
  checkOptions("Subgraph.token", options, BLOCK_OPTION_RULES);
  const context = contextOf(subgraph);
  return await (await import("../token.ts")).fetchToken(context, id, options);
}

/**
 * Every matching data NFT update, in time order, as {@linkcode Subgraph.nftUpdates} reads them.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param options Filters by NFT, owner and time.
 * @returns The update table: `id, nft, owner, tx, timestamp, type`.
 * @example Every update
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { nftUpdates } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await nftUpdates(sg)).numRows());
 * ```
 */
export async function nftUpdates(
  subgraph: SubgraphHandle,
  options: NftUpdatesOptions = {},
): Promise<ColumnTable> {
  checkOptions("Subgraph.nftUpdates", options, NFT_UPDATES_OPTION_RULES);
  const context = contextOf(subgraph);
  return await subgraphTable(
    subgraph,
    { operation: "nftUpdates", params: { ...options } },
    async () => (await import("../nft_updates.ts")).fetchNftUpdates(context, options),
  );
}

/**
 * The subgraph's totals, as {@linkcode Subgraph.globalStatistics} reads them.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param options The block and minimum block.
 * @returns A table `id, nftCount, datatokenCount, orderCount`.
 * @example The totals
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { globalStatistics } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await globalStatistics(sg)).objects());
 * ```
 */
export async function globalStatistics(
  subgraph: SubgraphHandle,
  options: { block?: number; minBlock?: number } = {},
): Promise<ColumnTable> {
  checkOptions("Subgraph.globalStatistics", options, BLOCK_OPTION_RULES);
  const context = contextOf(subgraph);
  return await subgraphTable(
    subgraph,
    { operation: "globalStatistics", params: { ...options } },
    async () => (await import("../global_statistics.ts")).fetchGlobalStatistics(context, options),
  );
}

/**
 * The OPC fee settings, as {@linkcode Subgraph.opc} reads them; null is the
 * normal answer on this subgraph.
 *
 * @param subgraph The client, from `new Subgraph(url, options)`.
 * @param id The OPC id, when known.
 * @returns The settings, or null.
 * @example The fee settings
 * ```ts
 * import { serveSubgraph } from "../../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "../subgraph.ts";
 * import { opc } from "./reads.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log(await opc(sg));
 * ```
 */
export async function opc(subgraph: SubgraphHandle, id?: string): Promise<OpcRecord | null> {
  const context = contextOf(subgraph);
  return await (await import("../opc.ts")).fetchOpc(context, id);
}

/** The block a read is at, and the lowest block the subgraph must have reached. */
const BLOCK_OPTION_RULES: OptionRules = { block: "integer", minBlock: "integer" };

/** The keys of {@linkcode NftUpdatesOptions}; dates are checked where they are read. */
const NFT_UPDATES_OPTION_RULES: OptionRules = {
  ...PAGED_READ_RULES,
  ...BLOCK_OPTION_RULES,
  nft: "string",
  owner: "string",
  since: "any",
  until: "any",
};

/** The keys of {@linkcode PaginateOptions}. */
const PAGINATE_OPTION_RULES: OptionRules = {
  ...PAGED_READ_RULES,
  ...BLOCK_OPTION_RULES,
  entity: "string",
  typeName: "string",
  fields: "strings",
  where: "object",
  orderBy: "string",
  orderDirection: ["asc", "desc"],
  schema: "object",
  label: "string",
  pageSize: "integer",
};
