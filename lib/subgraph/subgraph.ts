/**
 * The client of an Ocean subgraph (The Graph, read-only GraphQL).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { HttpClient } from "../http/client.ts";
import { checkOptions, type OptionRules } from "../options/check_options.ts";
import { PAGED_READ_RULES } from "../paging/types.ts";
import { ProtocolError } from "../errors/errors.ts";
import { registerSecret } from "../errors/redact.ts";
import { registerGatewayKey } from "./gateway_key.ts";
import { pagesWithProvenance, withProvenance } from "../table/with_provenance.ts";
import { CLIENT_OPTION_RULES, type ClientOptions } from "../http/options.ts";
import type { SubgraphContext } from "./_context.ts";
import { META_SELECTION } from "./_document.ts";
import { runQuery } from "./_query.ts";
import { OCEAN_START_BLOCK, readMeta } from "./_staleness.ts";
import type { WhereFilter } from "./_where.ts";
import type { NftUpdatesOptions } from "./nft_updates.ts";
import type { OpcRecord } from "./opc.ts";
import type { OrdersOptions } from "./orders.ts";
import type { PaginateOptions } from "./paginate.ts";
import type { SubgraphInfo, SubgraphMeta } from "./subgraph_info.ts";
import type { TokenRecord } from "./token.ts";
import type { TokensOptions } from "./tokens.ts";
import { lazyPages } from "../paging/lazy_pages.ts";

// Each read's code loads on its first call, so that importing tidepool stays
// quick (bench/import_bench.ts); a loaded module is not loaded again.
const ordersCode = () => import("./orders.ts");
const tokensCode = () => import("./tokens.ts");
const tokenCode = () => import("./token.ts");
const nftUpdatesCode = () => import("./nft_updates.ts");
const globalStatisticsCode = () => import("./global_statistics.ts");
const opcCode = () => import("./opc.ts");
const paginateCode = () => import("./paginate.ts");

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
  readonly #context: SubgraphContext;

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
    this.#context = {
      http,
      url: endpoint,
      startBlock: options.startBlock ?? OCEAN_START_BLOCK,
      minBlock: options.minBlock,
      send: (document, variables, signal) => runQuery(http, endpoint, document, variables, signal),
    };
  }

  /** Runs a table call with its provenance; the block it read at is its "as of". */
  #table(
    operation: string,
    params: Record<string, unknown>,
    run: () => Promise<ColumnTable>,
  ): Promise<ColumnTable> {
    return withProvenance({ service: this.url, operation: `Subgraph.${operation}`, params }, run);
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
    return runQuery<T>(this.#context.http, this.#context.url, document, variables);
  }

  /**
   * Reads `_meta`: the indexed block, indexing errors and deployment.
   *
   * @returns The subgraph's meta.
   */
  async meta(): Promise<SubgraphMeta> {
    const data = await this.#context.send(`query tidepoolMeta { _meta { ${META_SELECTION} } }`);
    const meta = readMeta(data._meta);
    if (!meta) {
      throw new ProtocolError(`Subgraph answered _meta without a block number: ${this.url}`, {
        details: JSON.stringify(data._meta ?? null),
        hint: "The endpoint may not be a subgraph served by graph-node",
      });
    }
    return meta;
  }

  /**
   * Reads every row of an entity into a table (see {@linkcode PaginateOptions}).
   *
   * @param options The entity, fields, filter, order and block.
   * @returns The table; `subgraphInfo(table)` tells its block and staleness.
   */
  async paginate(options: PaginateOptions): Promise<ColumnTable> {
    // The schema is code (accessors), not a parameter of the query.
    checkOptions("Subgraph.paginate", options, PAGINATE_OPTION_RULES);
    const { schema: _schema, ...params } = options;
    return await this.#table(
      "paginate",
      params,
      async () => (await paginateCode()).paginate(this.#context, options),
    );
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
    return this.#table(
      "orders",
      { ...options },
      async () => (await ordersCode()).fetchOrders(this.#context, options),
    );
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
    return pagesWithProvenance(
      { service: this.url, operation: "Subgraph.orderPages", params: { ...options } },
      lazyPages(async () => (await ordersCode()).fetchOrderPages(this.#context, options)),
    );
  }

  /**
   * Every token matching a `Token_filter`, in id order.
   *
   * @param where The filter, e.g. `{ isDatatoken: true }`.
   * @param options The block and minimum block.
   * @returns The token table.
   */
  async tokens(where: WhereFilter = {}, options: TokensOptions = {}): Promise<ColumnTable> {
    checkOptions("Subgraph.tokens", options, { ...PAGED_READ_RULES, ...BLOCK_OPTION_RULES });
    return await this.#table(
      "tokens",
      { where, ...options },
      async () => (await tokensCode()).fetchTokens(this.#context, where, options),
    );
  }

  /**
   * One token by address.
   *
   * @param id The token address, any letter case.
   * @param options The block and minimum block.
   * @returns The token, or null when the subgraph does not know it.
   */
  async token(
    id: string,
    options: { block?: number; minBlock?: number } = {},
  ): Promise<TokenRecord | null> {
    checkOptions("Subgraph.token", options, BLOCK_OPTION_RULES);
    return await (await tokenCode()).fetchToken(this.#context, id, options);
  }

  /**
   * Every matching data NFT update, in time order.
   *
   * @param options Filters by NFT, owner and time.
   * @returns The update table: `id, nft, owner, tx, timestamp, type`.
   */
  async nftUpdates(options: NftUpdatesOptions = {}): Promise<ColumnTable> {
    checkOptions("Subgraph.nftUpdates", options, NFT_UPDATES_OPTION_RULES);
    return await this.#table(
      "nftUpdates",
      { ...options },
      async () => (await nftUpdatesCode()).fetchNftUpdates(this.#context, options),
    );
  }

  /**
   * The subgraph's totals.
   *
   * @param options The block and minimum block.
   * @returns A table `id, nftCount, datatokenCount, orderCount`.
   */
  async globalStatistics(
    options: { block?: number; minBlock?: number } = {},
  ): Promise<ColumnTable> {
    checkOptions("Subgraph.globalStatistics", options, BLOCK_OPTION_RULES);
    return await this.#table(
      "globalStatistics",
      { ...options },
      async () => (await globalStatisticsCode()).fetchGlobalStatistics(this.#context, options),
    );
  }

  /**
   * The OPC fee settings; null is the normal answer on this subgraph.
   *
   * @param id The OPC id, when known.
   * @returns The settings, or null.
   */
  async opc(id?: string): Promise<OpcRecord | null> {
    return await (await opcCode()).fetchOpc(this.#context, id);
  }
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
