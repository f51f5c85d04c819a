/**
 * Order history read from the chain itself: `OrderStarted` events through
 * viem `getLogs`, pinned to one block and paged by block range, in the
 * subgraph order table's column names where they overlap.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../../errors/errors.ts";
import { checkOptions } from "../../options/check_options.ts";
import { noteAsOf } from "../../table/call_trace.ts";
import { withProvenance } from "../../table/with_provenance.ts";
import { deriveProvenance } from "../../table/derived_provenance.ts";
import { buildTable } from "../../table/build_table.ts";
import { defineSchema, type TableSchema } from "../../table/schema.ts";
import { SANDBOX_CHAIN_ID } from "./order_asset.ts";
import { onChain, originOf } from "./_chain_errors.ts";
import { rpcThroughHttp } from "./_rpc_through_http.ts";
import type { CacheOptions } from "../../http/cache.ts";

/** Options of {@linkcode chainOrders}. */
export interface ChainOrdersOptions {
  /** The chain's JSON-RPC URL. */
  rpcUrl: string;
  /** The chain id; default the sandbox chain's. */
  chainId?: number;
  /**
   * Only these datatokens; default every contract that emits `OrderStarted`.
   * An empty list matches nothing.
   */
  datatokens?: readonly string[];
  /** First block; default 0. */
  fromBlock?: bigint;
  /** Last block; default the latest block when the call starts (read once, so pages agree). */
  toBlock?: bigint;
  /** Blocks per `getLogs` request; default 5000 (public RPCs cap ranges). */
  pageBlocks?: bigint;
  /**
   * The record/replay cache of the chain's answers; default the one
   * `TIDEPOOL_CACHE_MODE` asks for, `false` for none.
   */
  cache?: CacheOptions | false;
}

const ORDER_STARTED_SIGNATURE =
  "event OrderStarted(address indexed consumer, address payer, uint256 amount, uint256 serviceIndex, uint256 timestamp, address indexed publishMarketAddress, uint256 blockNumber)";

/**
 * The columns of {@linkcode chainOrders}: the subgraph order table's names
 * where they mean the same thing.
 */
export const chainOrderSchema: TableSchema<Record<string, unknown>> = defineSchema(
  [
    {
      name: "id",
      type: "string",
      description: "Transaction hash, datatoken and payer, joined by -",
    },
    { name: "tx", type: "string", description: "Transaction hash of the order" },
    { name: "createdAt", type: "date", description: "Block time of the order (from the event)" },
    { name: "block", type: "integer", description: "Block number of the order" },
    { name: "eventIndex", type: "integer", description: "Index of the log in its block" },
    { name: "consumer", type: "string", description: "Consumer address" },
    { name: "payer", type: "string", description: "Address that paid" },
    { name: "datatoken", type: "string", description: "Datatoken address" },
    { name: "amount", type: "number", description: "Datatokens spent on the order" },
    {
      name: "serviceIndex",
      type: "integer",
      description: "Index of the ordered service in the DDO",
    },
    {
      name: "publishingMarket",
      type: "string",
      description: "Address of the publishing market, null when none",
    },
  ] as const,
);

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Reads every `OrderStarted` event between two blocks into a table, one
 * `getLogs` request per `pageBlocks` blocks. The end block is fixed when the
 * call starts, so an order mined meanwhile never half-appears.
 *
 * @param options RPC URL, datatokens and block range.
 * @returns The orders, oldest first (columns of {@linkcode chainOrderSchema}).
 * @example Orders on the sandbox chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const orders = await chainOrders({ rpcUrl: chain.rpcUrl });
 * orders.print();
 * ```
 */
export async function chainOrders(options: ChainOrdersOptions): Promise<ColumnTable> {
  const checked = checkOptions("chainOrders", options, {
    rpcUrl: "string",
    chainId: "integer",
    datatokens: "strings",
    fromBlock: "bigint",
    toBlock: "bigint",
    pageBlocks: "bigint",
    cache: ["object", [false]],
  });
  if (!checked.rpcUrl) {
    throw new TidepoolError("Cannot read orders from the chain: no rpcUrl", {
      hint: 'Give the chain\'s JSON-RPC URL: chainOrders({ rpcUrl: "http://127.0.0.1:8545" })',
    });
  }
  const { rpcUrl, cache: _cache, ...params } = checked;
  return await withProvenance(
    // An RPC URL often carries a provider key in its path: only its origin is kept.
    { service: originOf(rpcUrl), operation: "chainOrders", params },
    () => onChain(rpcUrl, "read orders from the chain", () => readChainOrders(checked)),
  );
}

async function readChainOrders(options: ChainOrdersOptions): Promise<ColumnTable> {
  // An empty list of datatokens matches no order; getLogs without an address would match all.
  if (options.datatokens?.length === 0) return buildTable(chainOrderSchema, []);
  // viem loads with the first call: importing tidepool should not pay for it.
  const { createPublicClient, custom, defineChain, formatUnits, getAddress, parseAbi } =
    await import(
      "viem"
    );
  const ORDER_STARTED = parseAbi([ORDER_STARTED_SIGNATURE] as const)[0];
  const chain = defineChain({
    id: options.chainId ?? SANDBOX_CHAIN_ID,
    name: "orders chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  // Through tidepool's HTTP client: the reads are recorded and replayed with the notebook's.
  const transport = custom({ request: rpcThroughHttp(options.rpcUrl, options.cache) }, {
    retryCount: 0, // tidepool's client retries what is worth retrying
  });
  const client = createPublicClient({ chain, transport });
  const pageBlocks = options.pageBlocks ?? 5000n;
  if (pageBlocks < 1n) throw new TidepoolError("Cannot read orders: pageBlocks must be at least 1");
  const toBlock = options.toBlock ?? await client.getBlockNumber();
  noteAsOf({ chainId: chain.id, block: Number(toBlock) });
  const address = options.datatokens?.map((a) => getAddress(a));
  const rows: Record<string, unknown>[] = [];
  for (let from = options.fromBlock ?? 0n; from <= toBlock; from += pageBlocks) {
    const to = from + pageBlocks - 1n < toBlock ? from + pageBlocks - 1n : toBlock;
    const logs = await client.getLogs({
      address,
      event: ORDER_STARTED,
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs) {
      const args = log.args;
      const datatoken = getAddress(log.address);
      rows.push({
        id: `${log.transactionHash}-${datatoken}-${args.payer}`.toLowerCase(),
        tx: log.transactionHash,
        createdAt: args.timestamp === undefined ? null : new Date(Number(args.timestamp) * 1000),
        block: Number(log.blockNumber),
        eventIndex: log.logIndex,
        consumer: args.consumer?.toLowerCase(),
        payer: args.payer?.toLowerCase(),
        datatoken: datatoken.toLowerCase(),
        amount: args.amount === undefined ? null : Number(formatUnits(args.amount, 18)),
        serviceIndex: args.serviceIndex === undefined ? null : Number(args.serviceIndex),
        publishingMarket: !args.publishMarketAddress || args.publishMarketAddress === ZERO
          ? null
          : args.publishMarketAddress.toLowerCase(),
      });
    }
  }
  return buildTable(chainOrderSchema, rows);
}

/**
 * Compares the chain's orders with the subgraph's by transaction hash: the
 * subgraph can lag or miss orders, and the chain is the truth.
 *
 * @param fromChain A table from {@linkcode chainOrders}.
 * @param fromSubgraph A table from `Subgraph.orders` (needs a `tx` column).
 * @returns One row per transaction: `tx`, `onChain`, `inSubgraph`, and `status`
 * (`both`, `missing from subgraph`, `not on chain`); its provenance, when
 * an input has one, is `compareOrders` of theirs (see `provenance`).
 * @example Orders the subgraph has not indexed yet
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const diff = compareOrders(await chainOrders({ rpcUrl }), await sg.orders({}));
 * diff.filter((d) => d.status !== "both").print();
 * ```
 */
export function compareOrders(fromChain: ColumnTable, fromSubgraph: ColumnTable): ColumnTable {
  const chainTx = new Set((fromChain.array("tx") as string[]).map((t) => t?.toLowerCase()));
  const graphTx = new Set((fromSubgraph.array("tx") as string[]).map((t) => t?.toLowerCase()));
  const rows = [...new Set([...chainTx, ...graphTx])].filter(Boolean).sort().map((tx) => ({
    tx,
    onChain: chainTx.has(tx),
    inSubgraph: graphTx.has(tx),
    status: chainTx.has(tx) ? graphTx.has(tx) ? "both" : "missing from subgraph" : "not on chain",
  }));
  const table = buildTable(COMPARISON_SCHEMA, rows);
  return deriveProvenance(table, {
    operation: "compareOrders",
    inputs: { fromChain, fromSubgraph },
  });
}

const COMPARISON_SCHEMA = defineSchema(
  [
    { name: "tx", type: "string" },
    { name: "onChain", type: "boolean" },
    { name: "inSubgraph", type: "boolean" },
    { name: "status", type: "string" },
  ] as const,
);
