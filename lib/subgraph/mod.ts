/**
 * The Ocean subgraph as tables: a GraphQL client with complete cursor
 * pagination pinned to one block, a staleness check on every call, and
 * typed order, token, NFT update and statistics tables.
 *
 * @module
 */

export * from "./subgraph.ts";
export * from "./subgraph_info.ts";
export * from "./stale_subgraph_error.ts";
export type { PaginateOptions, SubgraphRow, WhereFilter } from "./paginate.ts";
export { type OrderField, orderSchema, type OrdersOptions } from "./orders.ts";
export { tokenSchema, type TokensOptions } from "./tokens.ts";
export type { TokenRecord } from "./token.ts";
export { nftUpdateSchema, type NftUpdatesOptions } from "./nft_updates.ts";
export { globalStatisticsSchema } from "./global_statistics.ts";
export type { OpcRecord } from "./opc.ts";
export type { PagedReadOptions } from "../paging/types.ts";
export type { NftUpdateRow, OrderRow, TokenRow } from "./rows.ts";
