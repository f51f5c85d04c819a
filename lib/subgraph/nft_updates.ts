/**
 * Data NFT updates (metadata created or updated, state changes) as a table.
 *
 * @module
 */

import type { PagedReadOptions } from "../paging/types.ts";
import type { ColumnTable } from "arquero";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import type { SubgraphContext } from "./_context.ts";
import { address, unixSeconds } from "./_inputs.ts";
import { paginate, type SubgraphRow } from "./paginate.ts";
import type { NftUpdateRow } from "./rows.ts";

/** Filters of {@linkcode fetchNftUpdates}. Addresses may be in any letter case. */
export interface NftUpdatesOptions extends PagedReadOptions {
  /** Updates of this data NFT. */
  nft?: string;
  /** Updates of NFTs owned by this address. */
  owner?: string;
  /** Updates at or after this time. */
  since?: Date | string | number;
  /** Updates before this time. */
  until?: Date | string | number;
  /** Pin to this block; default the subgraph's head. */
  block?: number;
  /** Throw instead of warning when the subgraph is stale or below this block. */
  minBlock?: number;
}

/** The fields read for each update. */
export const NFT_UPDATE_FIELDS: readonly string[] = [
  "id",
  "nft.address",
  "nft.owner.id",
  "tx",
  "timestamp",
  "type",
];

/** The columns of the NFT update table. */
export const nftUpdateSchema: TableSchema<SubgraphRow, NftUpdateRow> = defineSchema([
  { name: "id", type: "string", description: "Update id: transaction and NFT" },
  { name: "nft", type: "string", path: "nft.address", description: "Data NFT address" },
  { name: "owner", type: "string", path: "nft.owner.id", description: "Current owner of the NFT" },
  { name: "tx", type: "string", description: "Transaction hash" },
  { name: "timestamp", type: "date", description: "Block time of the update" },
  {
    name: "type",
    type: "string",
    description: "METADATA_CREATED, METADATA_UPDATED, STATE_UPDATED or TOKENURI_UPDATED",
  },
]);

/**
 * Reads every matching NFT update, in time order.
 *
 * @param context The subgraph client state.
 * @param options The filters.
 * @returns The update table (columns of {@linkcode nftUpdateSchema}).
 *
 * @example Updates of one owner's NFTs
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const updates = await sg.nftUpdates();
 * console.log(updates.numRows());
 * ```
 */
export function fetchNftUpdates(
  context: SubgraphContext,
  options: NftUpdatesOptions = {},
): Promise<ColumnTable> {
  const owner = address(options.owner, "owner");
  return paginate(context, {
    entity: "nftUpdates",
    typeName: "NftUpdate",
    fields: NFT_UPDATE_FIELDS,
    where: {
      nft: address(options.nft, "NFT"),
      nft_: owner === undefined ? undefined : { owner },
      timestamp_gte: unixSeconds(options.since, "since"),
      timestamp_lt: unixSeconds(options.until, "until"),
    },
    orderBy: "timestamp",
    block: options.block,
    minBlock: options.minBlock,
    signal: options.signal,
    maxPages: options.maxPages,
    maxRows: options.maxRows,
    schema: nftUpdateSchema,
    label: "nftUpdates",
  });
}
