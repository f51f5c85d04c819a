/**
 * The client of an Ocean subgraph (The Graph, read-only GraphQL).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { checkOptions } from "../options/check_options.ts";
import { registerSecret } from "../errors/redact.ts";
import { registerGatewayKey } from "./gateway_key.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../http/options.ts";
import { bindContext } from "./_subgraph_handle.ts";
import { runQuery } from "./_query.ts";
import { OCEAN_START_BLOCK } from "./_staleness.ts";
import type { WhereFilter } from "./_where.ts";
import type { NftUpdatesOptions } from "./nft_updates.ts";
import type { OpcRecord } from "./opc.ts";
import type { OrdersOptions } from "./orders.ts";
import type { PaginateOptions } from "./paginate.ts";
import type { SubgraphInfo, SubgraphMeta } from "./subgraph_info.ts";
import type { TokenRecord } from "./token.ts";
import type { TokensOptions } from "./tokens.ts";
import * as reads from "./actions/reads.ts";

export { OCEAN_START_BLOCK };

/**
 * The subgraph's default pacing: at most four queries in flight (a table
 * read walks four ranges at once). Why four: docs/ASSUMPTIONS.md
 * ("Requests in flight").
 */
export const SUBGRAPH_PACING = { concurrency: 4 } as const;

/** Options of a {@linkcode Subgraph}: the shared client options and the staleness settings. */
export interface SubgraphOptions extends ClientOptions {
  /**
   * Turns staleness into an error: every call throws
   * `StaleSubgraphError` when the subgraph is below this block, below its
   * start block, or reports indexing errors. Default: warn and flag.
   */
  minBlock?: number;
  /** The subgraph's first block; default 11,459,549 (the Ocean subgraph on its network). */
  startBlock?: number;
  /**
   * A The Graph gateway API key, sent as `Authorization: Bearer <key>` so
   * that it stays out of the URL. A key already in the URL path
   * (`/api/<key>/subgraphs/id/<id>`) works too and is redacted the same way.
   */
  apiKey?: string;
}

/**
 * An Ocean subgraph. Every table method reads all pages on a cursor (never
 * `skip`), pinned to one block, and checks `_meta` once: when the subgraph
 * is behind its start block or reports indexing errors, it warns and flags
 * the table (`subgraphInfo(table).stale`), or throws when `minBlock` is set.
 *
 * @example Orders of one consumer, all pages
 * ```ts
 * import { serveSubgraph } from "../sandbox/subgraph/mod.ts";
 * import { subgraphInfo } from "./subgraph_info.ts";
 * await using sandbox = serveSubgraph();
 * const sg = new Subgraph(sandbox.endpoint, { progress: false });
 * const orders = await sg.orders({ since: "2024-01-01" });
 * if (subgraphInfo(orders)?.stale) console.log("the subgraph is behind; do not trust empty results");
 * ```
 */
export class Subgraph {
  /** The endpoint URL. */
  readonly url: string;

  /**
   * Creates a client of one subgraph endpoint; nothing is sent until the first query.
   *
   * @param url The endpoint, `https://host/subgraphs/name/<owner>/<name>`.
   * @param options Client options, `minBlock`, `startBlock` and `apiKey`.
   */
  constructor(url: string, options: SubgraphOptions = {}) {
    options = checkOptions("new Subgraph", options, {
      ...CLIENT_OPTION_RULES,
      minBlock: "integer",
      startBlock: "integer",
      apiKey: "string",
    });
    registerGatewayKey(url);
    const { apiKey, ...clientOptions } = options;
    if (apiKey) {
      registerSecret(apiKey);
      clientOptions.headers = { ...options.headers, Authorization: `Bearer ${apiKey}` };
    }
    const http = new HttpClient(url, { ...clientOptions, defaults: SUBGRAPH_PACING });
    this.url = http.baseUrl;
    const endpoint = http.baseUrl;
    bindContext(this, {
      http,
      url: endpoint,
      startBlock: options.startBlock ?? OCEAN_START_BLOCK,
      minBlock: options.minBlock,
      send: (document, variables, signal) => runQuery(http, endpoint, document, variables, signal),
    });
  }

  /**
   * Sends a GraphQL query (an idempotent POST, retried on transport errors).
   *
   * @param document The query text; pass values in `variables`, never in the text.
   * @param variables The variables.
   * @returns The `data` of the answer.
   * @throws {ProtocolError} when the answer has `errors`, even with HTTP 200;
   *   `error.messages` has every message and `error.data` any partial data.
   */
  query<T = Record<string, unknown>>(
    document: string,
    variables: Record<string, unknown> = {},
  ): Promise<T> {
    return reads.query<T>(this, document, { variables });
  }

  /**
   * Reads `_meta`: the indexed block, indexing errors and deployment.
   *
   * @returns The subgraph's meta.
   */
  meta(): Promise<SubgraphMeta> {
    return reads.meta(this);
  }

  /**
   * Reads every row of an entity into a table (see {@linkcode PaginateOptions}).
   *
   * @param options The entity, fields, filter, order and block.
   * @returns The table; `subgraphInfo(table)` tells its block and staleness.
   */
  paginate(options: PaginateOptions): Promise<ColumnTable> {
    return reads.paginate(this, options);
  }

  /**
   * Every matching order, in time order.
   *
   * @param options Filters by consumer, payer, datatoken and time.
   * @returns The order table: `id, tx, createdAt, consumer, payer, datatoken,
   *   datatokenSymbol, consumerMarketToken, consumerMarketTokenSymbol,
   *   serviceIndex, providerFee, reuses`.
   */
  orders(options: OrdersOptions = {}): Promise<ColumnTable> {
    return reads.orders(this, options);
  }

  /**
   * The order walk of {@linkcode Subgraph.orders} one page at a time, each
   * page a table of the same columns, for histories that should not be held
   * in memory: hand it to `writeDataset` to stream it into Parquet.
   *
   * @param options As for `orders`.
   * @returns The pages, each with its own provenance (see `provenance`:
   *   `page`, and that page's rows, cache keys and block); when done, the
   *   read's block and staleness.
   */
  orderPages(options: OrdersOptions = {}): AsyncGenerator<ColumnTable, SubgraphInfo> {
    return reads.orderPages(this, options);
  }

  /**
   * Every token matching a `Token_filter`, in id order.
   *
   * @param where The filter, e.g. `{ isDatatoken: true }`.
   * @param options The block and minimum block.
   * @returns The token table.
   */
  tokens(where: WhereFilter = {}, options: TokensOptions = {}): Promise<ColumnTable> {
    return reads.tokens(this, where, options);
  }

  /**
   * One token by address.
   *
   * @param id The token address, any letter case.
   * @param options The block and minimum block.
   * @returns The token, or null when the subgraph does not know it.
   */
  token(
    id: string,
    options: { block?: number; minBlock?: number } = {},
  ): Promise<TokenRecord | null> {
    return reads.token(this, id, options);
  }

  /**
   * Every matching data NFT update, in time order.
   *
   * @param options Filters by NFT, owner and time.
   * @returns The update table: `id, nft, owner, tx, timestamp, type`.
   */
  nftUpdates(options: NftUpdatesOptions = {}): Promise<ColumnTable> {
    return reads.nftUpdates(this, options);
  }

  /**
   * The subgraph's totals.
   *
   * @param options The block and minimum block.
   * @returns A table `id, nftCount, datatokenCount, orderCount`.
   */
  globalStatistics(options: { block?: number; minBlock?: number } = {}): Promise<ColumnTable> {
    return reads.globalStatistics(this, options);
  }

  /**
   * The OPC fee settings; null is the normal answer on this subgraph.
   *
   * @param id The OPC id, when known.
   * @returns The settings, or null.
   */
  opc(id?: string): Promise<OpcRecord | null> {
    return reads.opc(this, id);
  }
}
