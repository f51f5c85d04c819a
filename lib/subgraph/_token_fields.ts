/**
 * What the token reads share: the fields asked for each token and the ids of
 * its `{ id }` lists. One token and the token table both use them, and the
 * table's row type comes from the one token's record, so they stand below
 * both.
 *
 * @module
 */

import type { SubgraphRow } from "./paginate.ts";

/** The fields read for each token. */
export const TOKEN_FIELDS: readonly string[] = [
  "id",
  "address",
  "symbol",
  "name",
  "isDatatoken",
  "templateId",
  "nft.id",
  "publishMarketFeeAddress",
  "publishMarketFeeToken",
  "publishMarketFeeAmount",
  "orderCount",
  "createdTimestamp",
  "dispensers(first: 1000).id",
  "fixedRateExchanges(first: 1000).id",
];

/** The ids of a list of `{ id }` objects; an empty list when absent. */
export function ids(value: unknown): string[] {
  return Array.isArray(value)
    ? value.map((item) => String((item as SubgraphRow | null)?.id ?? "")).filter(Boolean)
    : [];
}
