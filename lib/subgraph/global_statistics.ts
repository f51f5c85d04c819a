/**
 * The subgraph's totals (NFTs, datatokens, orders) as a table.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import type { SubgraphContext } from "./_context.ts";
import { paginate, type SubgraphRow } from "./paginate.ts";

/** The columns of the statistics table. */
export const globalStatisticsSchema: TableSchema<SubgraphRow> = defineSchema([
  { name: "id", type: "string", description: "Statistics entity id" },
  { name: "nftCount", type: "integer", description: "Data NFTs created" },
  { name: "datatokenCount", type: "integer", description: "Datatokens created" },
  { name: "orderCount", type: "integer", description: "Orders made" },
]);

/**
 * Reads the totals; one row on a healthy subgraph, none before it indexed
 * anything (then the table is flagged stale).
 *
 * @param context The subgraph client state.
 * @param options The block and minimum block.
 * @returns The statistics table (columns of {@linkcode globalStatisticsSchema}).
 *
 * @example The order count
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const stats = await sg.globalStatistics();
 * console.log(stats.get("orderCount", 0));
 * ```
 */
export function fetchGlobalStatistics(
  context: SubgraphContext,
  options: { block?: number; minBlock?: number } = {},
): Promise<ColumnTable> {
  return paginate(context, {
    entity: "globalStatistics",
    typeName: "GlobalStatistic",
    fields: globalStatisticsSchema.names,
    orderBy: "id",
    block: options.block,
    minBlock: options.minBlock,
    schema: globalStatisticsSchema,
    label: "globalStatistics",
  });
}
