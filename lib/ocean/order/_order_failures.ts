/**
 * The errors of a lane step that stopped or failed after sending part of
 * its plan: each names what was paid and ordered, with transaction hashes,
 * and how to go on without paying twice.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { ChainHex, DatatokenOrder } from "./_order_types.ts";
import type { PlannedTransaction, QuotedOrder } from "./_quote_types.ts";

/** A transaction as sent: its action and, once the chain took it, its hash. */
export interface SentTransaction {
  action: PlannedTransaction["action"];
  hash?: ChainHex;
}

/** An order placed (or reused) in this step, with the asset it was for. */
export interface Placed {
  order: QuotedOrder;
  result: DatatokenOrder;
}

/** Throws the stop error when the signal has fired. */
export function stopIfAborted(signal: AbortSignal | undefined, placed: readonly Placed[]): void {
  if (signal?.aborted) throw stoppedError(signal, placed, []);
}

/** The transactions of placed orders, for errors: `did service: buy 0x..., startOrder 0x...`. */
export function placedText(placed: readonly Placed[]): string {
  return placed.filter((p) => p.result.source !== "reused").map(({ order, result }) =>
    `${order.did ?? order.datatoken}${order.serviceId ? ` ${order.serviceId}` : ""}: ${
      result.transactions.map((t) => `${t.action} ${t.txHash}`).join(", ")
    }`
  ).join("; ");
}

/** The error of a stop: what was paid and ordered, with hashes, and that nothing more was sent. */
export function stoppedError(
  signal: AbortSignal,
  placed: readonly Placed[],
  sent: readonly SentTransaction[],
): TidepoolError {
  const ordered = placedText(placed);
  const approvals = sent.filter((s) => s.hash).map((s) => `${s.action} ${s.hash}`).join(", ");
  const what = [
    ordered ? `paid and ordered: ${ordered}` : "",
    approvals ? `approvals sent (they move no tokens): ${approvals}` : "",
  ].filter(Boolean).join("; ");
  return new TidepoolError(
    `Cannot order: stopped by the signal; ${what || "nothing was sent"}; nothing further was sent`,
    {
      hint: ordered
        ? "The orders placed stay valid: order (or start) again and they are reused, or give each as its asset's transferTxId"
        : "Order again when you want to pay",
      cause: signal.reason,
    },
  );
}

/** An error after some orders of the step were placed names them: they stay valid. */
export function afterPlacing(error: unknown, placed: readonly Placed[]): unknown {
  const ordered = placedText(placed);
  if (!ordered) return error;
  const short = error instanceof TidepoolError
    ? error.shortMessage
    : String((error as Error)?.message ?? error).split("\n")[0];
  return new TidepoolError(`${short}; before it, paid and ordered: ${ordered}`, {
    details: error instanceof TidepoolError ? error.details : undefined,
    detailsLabel: error instanceof TidepoolError ? error.detailsLabel : undefined,
    hint: `${
      error instanceof TidepoolError && error.hint ? `${error.hint}. ` : ""
    }The orders placed stay valid: order (or start) again and they are reused`,
    cause: error,
  });
}

/**
 * The error of an order that failed after its payment went through: the
 * payment's transactions and the failed one, and how to recover (the
 * datatoken is held, so ordering again does not pay again).
 */
export function failedAfterPayment(
  error: unknown,
  sent: readonly SentTransaction[],
  paid: number,
  datatoken: ChainHex,
  source: DatatokenOrder["source"],
): TidepoolError {
  const named = (tx: SentTransaction) =>
    `${tx.action === "buy" ? "buyDT" : tx.action} ${tx.hash ?? "(refused before it was mined)"}`;
  const payment = sent.slice(0, paid).map(named);
  const after = sent.slice(paid).map(named);
  // One line: what failed and, trimmed, what the chain said; the transactions are the details.
  const reason = error instanceof TidepoolError
    ? `${error.shortMessage.replace(/^Cannot /, "could not ")}${
      error.details ? ` (${error.detailsLabel.toLowerCase()}: ${error.details})` : ""
    }`
    : String(error instanceof Error ? error.message : error).split("\n")[0];
  return new TidepoolError(
    `Cannot order: ${
      source === "exchange" ? "the payment went through" : "the datatoken was dispensed"
    } but the order failed: ${reason}`,
    {
      details: `${source === "exchange" ? "paid" : "dispensed"}: ${payment.join(", ")}; then: ${
        after.join(", ") || "nothing was sent"
      }`,
      detailsLabel: "Transactions",
      hint:
        `The datatoken ${datatoken} is in your wallet: order again (a fresh provider fee if it expired) and it is used without paying again; or transfer it back to the publisher for a refund`,
      cause: error,
    },
  );
}
