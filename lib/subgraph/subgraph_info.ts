/**
 * What a subgraph table was read from: the block it is pinned to, whether
 * the subgraph looked stale, and how many pages it took. Kept beside the
 * table (a WeakMap keyed by the table) so that `sg.orders()` still returns a
 * plain Arquero table.
 *
 * @module
 */

import type { ColumnTable } from "arquero";

/** The `_meta` of a subgraph: its indexed head, its health and its deployment. */
export interface SubgraphMeta {
  /** The last block the subgraph has indexed (moves only on blocks with its events). */
  block: number;
  /** The hash of that block, when the subgraph reports it. */
  blockHash: string | null;
  /** The time of that block, when the subgraph reports it. */
  blockTime: Date | null;
  /** Whether the subgraph reports indexing errors (its data may be incomplete). */
  hasIndexingErrors: boolean;
  /** The deployment id (IPFS hash of the subgraph manifest). */
  deployment: string;
}

/** How a table was read from the subgraph and whether to trust it. */
export interface SubgraphInfo {
  /** The block every page was pinned to: the table is one snapshot at this block. */
  block: number | null;
  /** The subgraph's `_meta` as read with the first page; null when it did not answer `_meta`. */
  meta: SubgraphMeta | null;
  /** Whether the subgraph looked stale or unhealthy; see `reasons`. */
  stale: boolean;
  /** Why the table should not be taken as the truth; empty when `stale` is false. */
  reasons: string[];
  /** Requests sent. */
  pages: number;
  /** Rows in the table. */
  rows: number;
}

const infos = new WeakMap<object, SubgraphInfo>();

/** Records the info of a table (used by the Subgraph client). */
export function attachSubgraphInfo<T extends object>(table: T, info: SubgraphInfo): T {
  infos.set(table, info);
  return table;
}

/**
 * The block, staleness and page count of a table returned by a
 * {@linkcode Subgraph} method.
 *
 * @param table A table returned by `orders`, `tokens`, `nftUpdates`,
 *   `globalStatistics` or `paginate`.
 * @returns Its info, or undefined for a table that did not come from a subgraph.
 *
 * @example Refusing to plot a stale answer
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { Subgraph } from "./subgraph.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const orders = await sg.orders({ since: "2024-01-01" });
 * const info = subgraphInfo(orders);
 * if (info?.stale) console.log(`Not trusted: ${info.reasons.join("; ")}`);
 * else console.log(`${orders.numRows()} orders as of block ${info?.block}`);
 * ```
 */
export function subgraphInfo(table: ColumnTable | object): SubgraphInfo | undefined {
  return infos.get(table);
}
