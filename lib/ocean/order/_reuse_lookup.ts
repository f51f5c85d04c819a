/**
 * Orders already on chain: the newest still-valid order of a buyer for a
 * service (so it is reused, not paid twice), and whether a given order
 * transaction was mined. Read live from the chain, never from a recording.
 *
 * @module
 */

import {
  createPublicClient,
  getAddress,
  http,
  parseAbi,
  type PublicClient,
  TransactionReceiptNotFoundError,
} from "viem";
import type { ChainHex, DatatokenOrder } from "./_order_types.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { orderChain } from "./_chain_context.ts";

const ORDER_STARTED = parseAbi([
  "event OrderStarted(address indexed consumer, address payer, uint256 amount, uint256 serviceIndex, uint256 timestamp, address indexed publishMarketAddress, uint256 blockNumber)",
])[0];

/**
 * Blocks per `getLogs` request when looking for an order to reuse: RPC
 * providers commonly refuse wider ranges.
 */
export const REUSE_PAGE_BLOCKS = 10_000;

/**
 * The newest order of `consumer` paid by `payer` for this service that has
 * not expired, read from OrderStarted logs backwards from the latest block,
 * one page of `pageBlocks` ({@linkcode REUSE_PAGE_BLOCKS} by default) at a time. Only the window an
 * order can still be valid in is read: the service's timeout back from the
 * latest block (or the clock, if earlier); a timeout of 0 never expires, so
 * every page back to block 0.
 */
export async function findValidOrder(
  reader: PublicClient,
  query: {
    datatoken: ChainHex;
    consumer: ChainHex;
    payer: ChainHex;
    serviceIndex: number;
    timeout: number;
    now: number;
    pageBlocks: number;
  },
): Promise<DatatokenOrder | undefined> {
  if (!Number.isInteger(query.pageBlocks) || query.pageBlocks < 1) {
    throw new TidepoolError(
      `Cannot order: logRangeBlocks must be a whole number of blocks, at least 1`,
      {
        details: String(query.pageBlocks),
        detailsLabel: "Given",
        hint: "Leave it out for 10,000, or give the range your RPC provider allows",
      },
    );
  }
  const page = BigInt(query.pageBlocks);
  const latest = await reader.getBlock({ blockTag: "latest" });
  const latestNumber = latest.number ?? 0n;
  const oldestUseful = query.timeout === 0
    ? undefined
    : Math.min(query.now, Number(latest.timestamp)) - query.timeout;
  for (let to = latestNumber; to >= 0n; to -= page) {
    const from = to - page + 1n > 0n ? to - page + 1n : 0n;
    const logs = await reader.getLogs({
      address: query.datatoken,
      event: ORDER_STARTED,
      args: { consumer: query.consumer },
      fromBlock: from,
      toBlock: to,
    });
    for (const log of logs.reverse()) {
      const { serviceIndex, timestamp, payer } = log.args;
      if (Number(serviceIndex) !== query.serviceIndex || timestamp === undefined) continue;
      if (!payer || getAddress(payer) !== getAddress(query.payer)) continue;
      if (query.timeout !== 0 && Number(timestamp) + query.timeout < query.now) continue;
      if (!log.transactionHash || log.blockNumber === null) continue;
      return {
        txHash: log.transactionHash,
        blockNumber: log.blockNumber,
        pricePaid: "0",
        source: "reused",
        paid: [],
        transactions: [],
      };
    }
    if (from === 0n) break;
    // Every order before this page was mined before its first block: too old once that is.
    if (oldestUseful !== undefined) {
      const first = await reader.getBlock({ blockNumber: from });
      if (Number(first.timestamp) < oldestUseful) break;
    }
  }
  return undefined;
}

/** The block of a mined transaction, or undefined when the chain does not know it. */
export async function minedBlock(
  rpcUrl: string,
  chainId: number,
  txHash: ChainHex,
): Promise<bigint | undefined> {
  const chain = orderChain(rpcUrl, chainId);
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  // Only "no such receipt" means unknown; an unreachable chain is an error of its own.
  const receipt = await reader.getTransactionReceipt({ hash: txHash }).catch((error) => {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  });
  return receipt?.status === "success" ? receipt.blockNumber : undefined;
}
