/**
 * How a node checks an order transaction before serving a download or a
 * paid job, in ocean-node's order (`validateOrders.ts`): the receipt, then
 * the `OrderStarted` event of the datatoken (following an `OrderReused` to
 * its original order), then consumer, service index and expiry.
 *
 * @module
 */

import { getAddress, parseEventLogs, type PublicClient } from "viem";
import { ARTIFACTS } from "./_artifacts.ts";
import type { ChainAddress } from "./deploy_ocean_contracts.ts";

/** What a node knows when it checks an order. */
export interface OrderCheck {
  /** The transaction hash the consumer sent. */
  txId: `0x${string}`;
  /** The datatoken of the service. */
  datatoken: ChainAddress;
  /** The address asking for the download, or the environment's address for a job. */
  consumer: ChainAddress;
  /**
   * Who must have paid: the job's signer. ocean-node accepts a compute order
   * whose consumer or payer is the environment's address; the sandbox also
   * requires the payer to be the one who starts the job, so nobody runs a
   * job on another's order.
   */
  payer?: ChainAddress;
  /** The index of the service in the DDO. */
  serviceIndex: number;
  /** The service's timeout in seconds; 0 means an order never expires. */
  timeout: number;
  /** Unix seconds now; default the clock. */
  now?: number;
}

/** The verdict: valid, or the reason the node gives. */
export type OrderVerdict =
  | { valid: true; orderTxId: `0x${string}`; blockNumber: bigint }
  | { valid: false; reason: string };

type OrderStartedArgs = {
  consumer: ChainAddress;
  payer: ChainAddress;
  serviceIndex: bigint;
  timestamp: bigint;
};

/**
 * Checks one order transaction on chain.
 *
 * @param client A viem public client of the chain.
 * @param check The transaction, datatoken, consumer, service and timeout.
 * @returns Whether the order entitles the consumer, and why not.
 */
export async function validateOrder(
  client: PublicClient,
  check: OrderCheck,
): Promise<OrderVerdict> {
  const receipt = await client.getTransactionReceipt({ hash: check.txId }).catch(() => undefined);
  if (!receipt) return { valid: false, reason: "Tx receipt cannot be processed" };
  if (receipt.status !== "success") return { valid: false, reason: "Order transaction failed" };
  const datatoken = getAddress(check.datatoken);
  const fromDatatoken = receipt.logs.filter((log) => getAddress(log.address) === datatoken);
  let startReceipt = receipt;
  let [started] = parseEventLogs({
    abi: ARTIFACTS.ERC20Template.abi,
    eventName: "OrderStarted",
    logs: fromDatatoken,
  }) as unknown as { args: OrderStartedArgs }[];
  if (!started) {
    const [reused] = parseEventLogs({
      abi: ARTIFACTS.ERC20Template.abi,
      eventName: "OrderReused",
      logs: fromDatatoken,
    }) as unknown as { args: { orderTxId: `0x${string}` } }[];
    if (!reused) return { valid: false, reason: "No OrderStarted event found for this datatoken" };
    const original = await client.getTransactionReceipt({ hash: reused.args.orderTxId })
      .catch(() => undefined);
    if (!original) return { valid: false, reason: "Tx receipt cannot be processed" };
    startReceipt = original;
    [started] = parseEventLogs({
      abi: ARTIFACTS.ERC20Template.abi,
      eventName: "OrderStarted",
      logs: original.logs.filter((log) => getAddress(log.address) === datatoken),
    }) as unknown as { args: OrderStartedArgs }[];
    if (!started) return { valid: false, reason: "Reused order has no OrderStarted event" };
  }
  if (getAddress(started.args.consumer) !== getAddress(check.consumer)) {
    return { valid: false, reason: "Invalid consumer: the order was started for another address" };
  }
  if (check.payer && getAddress(started.args.payer) !== getAddress(check.payer)) {
    return { valid: false, reason: "Invalid payer: the order was paid by another address" };
  }
  if (Number(started.args.serviceIndex) !== check.serviceIndex) {
    return { valid: false, reason: "Invalid service index" };
  }
  const now = check.now ?? Math.floor(Date.now() / 1000);
  if (check.timeout !== 0 && Number(started.args.timestamp) + check.timeout < now) {
    return { valid: false, reason: "The order has expired" };
  }
  return { valid: true, orderTxId: startReceipt.transactionHash, blockNumber: receipt.blockNumber };
}
