/**
 * The Ocean subgraph's reads as free functions of a `Subgraph` client, in
 * viem's action style: the client first, then the call's arguments. Each is
 * what the `Subgraph` method of the same name does; the methods call these.
 *
 * @example Orders, as a function of the client
 * ```ts
 * import { Subgraph } from "@tidepool/tidepool/subgraph";
 * import { orders } from "@tidepool/tidepool/subgraph/actions";
 * import { serveSubgraph } from "@tidepool/tidepool/sandbox/subgraph";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * console.log((await orders(sg, { since: "2024-01-01" })).numRows());
 * ```
 *
 * @module
 */

export type { SubgraphHandle } from "../_subgraph_handle.ts";
export * from "./reads.ts";
export type {
  NftUpdatesOptions,
  OpcRecord,
  OrderField,
  OrdersOptions,
  PagedReadOptions,
  PaginateOptions,
  SubgraphInfo,
  SubgraphMeta,
  SubgraphRow,
  TokenRecord,
  TokensOptions,
  WhereFilter,
} from "../mod.ts";
export type { ColumnSpec, TableSchema } from "../../table/schema.ts";
export type { ColumnType } from "../../table/convert.ts";
