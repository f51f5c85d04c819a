/**
 * Tokens (datatokens and the base tokens they are priced in) as a table.
 *
 * @module
 */

import type { PagedReadOptions } from "../paging/types.ts";
import type { ColumnTable } from "arquero";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import type { SubgraphContext } from "./_context.ts";
import type { WhereFilter } from "./_where.ts";
import { paginate, type SubgraphRow } from "./paginate.ts";
import type { TokenRow } from "./rows.ts";
import { ids, TOKEN_FIELDS } from "./_token_fields.ts";

export { ids, TOKEN_FIELDS } from "./_token_fields.ts";

/** The columns of the token table. */
export const tokenSchema: TableSchema<SubgraphRow, TokenRow> = defineSchema([
  { name: "id", type: "string", description: "Token address (the entity id)" },
  { name: "address", type: "string", description: "Token address" },
  { name: "symbol", type: "string", description: "Token symbol" },
  { name: "name", type: "string", description: "Token name" },
  { name: "isDatatoken", type: "boolean", description: "Whether it is a datatoken" },
  { name: "templateId", type: "integer", description: "Datatoken template id" },
  { name: "nft", type: "string", path: "nft.id", description: "Data NFT that owns the datatoken" },
  {
    name: "publishMarketFeeAddress",
    type: "string",
    description: "Address that collects the publish-market fee",
  },
  { name: "publishMarketFeeToken", type: "string", description: "Token of that fee" },
  {
    name: "publishMarketFeeAmount",
    type: "string",
    description: "Fee amount, a BigDecimal kept as exact decimal text",
  },
  { name: "orderCount", type: "bigint", description: "Orders of the token (BigInt, exact)" },
  {
    name: "createdAt",
    type: "date",
    path: "createdTimestamp",
    description: "Block time the token was created",
  },
  {
    name: "dispensers",
    type: "array",
    get: (row) => ids(row.dispensers),
    description: "Ids of its dispensers",
  },
  {
    name: "fixedRateExchanges",
    type: "array",
    get: (row) => ids(row.fixedRateExchanges),
    description: "Ids of its fixed-rate exchanges",
  },
]);

/** Options of {@linkcode fetchTokens}. */
export interface TokensOptions extends PagedReadOptions {
  /** Pin to this block; default the subgraph's head. */
  block?: number;
  /** Throw instead of warning when the subgraph is stale or below this block. */
  minBlock?: number;
}

/**
 * Reads every token that matches a filter.
 *
 * @param context The subgraph client state.
 * @param where A `Token_filter`, e.g. `{ isDatatoken: true }` or `{ symbol_in: [...] }`.
 * @param options The block and minimum block.
 * @returns The token table (columns of {@linkcode tokenSchema}), in id order.
 *
 * @example Every datatoken
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const datatokens = await sg.tokens({ isDatatoken: true });
 * console.log(datatokens.numRows());
 * ```
 */
export function fetchTokens(
  context: SubgraphContext,
  where: WhereFilter = {},
  options: TokensOptions = {},
): Promise<ColumnTable> {
  return paginate(context, {
    entity: "tokens",
    typeName: "Token",
    fields: TOKEN_FIELDS,
    where,
    orderBy: "id",
    block: options.block,
    minBlock: options.minBlock,
    signal: options.signal,
    maxPages: options.maxPages,
    maxRows: options.maxRows,
    schema: tokenSchema,
    label: "tokens",
  });
}
