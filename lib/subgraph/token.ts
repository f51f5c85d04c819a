/**
 * One token by address, as a plain object.
 *
 * @module
 */

import { toBigInt, toDate, toInteger } from "../table/convert.ts";
import type { SubgraphContext } from "./_context.ts";
import { checkedQuery } from "./_checked_query.ts";
import { selectionSet } from "./_document.ts";
import { address } from "./_inputs.ts";
import { ids, TOKEN_FIELDS } from "./_token_fields.ts";

/** One token, with the columns of the token table. */
export interface TokenRecord {
  /** Token address (the entity id). */
  id: string;
  /** Token address. */
  address: string | null;
  /** Symbol. */
  symbol: string | null;
  /** Name. */
  name: string | null;
  /** Whether it is a datatoken. */
  isDatatoken: boolean | null;
  /** Datatoken template id. */
  templateId: number | null;
  /** Data NFT that owns the datatoken. */
  nft: string | null;
  /** Address that collects the publish-market fee. */
  publishMarketFeeAddress: string | null;
  /** Token of that fee. */
  publishMarketFeeToken: string | null;
  /** Fee amount as exact decimal text (a BigDecimal). */
  publishMarketFeeAmount: string | null;
  /** Orders of the token (a BigInt, exact). */
  orderCount: bigint | null;
  /** Block time the token was created. */
  createdAt: Date | null;
  /** Ids of its dispensers. */
  dispensers: string[];
  /** Ids of its fixed-rate exchanges. */
  fixedRateExchanges: string[];
}

/**
 * Reads one token; null when the subgraph does not know it (with a warning
 * when the subgraph is stale, since the token may simply not be indexed).
 *
 * @param context The subgraph client state.
 * @param id The token address, any letter case.
 * @param options The block and minimum block.
 * @returns The token, or null.
 *
 * @example A datatoken's fee settings
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const [address] = (await sg.tokens({ isDatatoken: true })).array("address") as string[];
 * const token = await sg.token(address);
 * console.log(token?.symbol, token?.publishMarketFeeAmount);
 * ```
 */
export async function fetchToken(
  context: SubgraphContext,
  id: string,
  options: { block?: number; minBlock?: number } = {},
): Promise<TokenRecord | null> {
  const pinned = options.block !== undefined;
  const data = await checkedQuery(
    context,
    `token ${id}`,
    {
      variables: `$id: ID!${pinned ? ", $block: Block_height" : ""}`,
      body: `token(id: $id${pinned ? ", block: $block" : ""}) { ${selectionSet(TOKEN_FIELDS)} }`,
    },
    { id: address(id, "token"), ...(pinned ? { block: { number: options.block } } : {}) },
    (answer) => !answer.token,
    options.minBlock,
  );
  const raw = data.token as Record<string, unknown> | null;
  if (!raw) return null;
  const text = (value: unknown) => typeof value === "string" ? value : null;
  return {
    id: String(raw.id),
    address: text(raw.address),
    symbol: text(raw.symbol),
    name: text(raw.name),
    isDatatoken: typeof raw.isDatatoken === "boolean" ? raw.isDatatoken : null,
    templateId: toInteger(raw.templateId),
    nft: text((raw.nft as { id?: unknown } | null)?.id),
    publishMarketFeeAddress: text(raw.publishMarketFeeAddress),
    publishMarketFeeToken: text(raw.publishMarketFeeToken),
    publishMarketFeeAmount: text(raw.publishMarketFeeAmount),
    orderCount: toBigInt(raw.orderCount),
    createdAt: toDate(raw.createdTimestamp ?? null),
    dispensers: ids(raw.dispensers),
    fixedRateExchanges: ids(raw.fixedRateExchanges),
  };
}
