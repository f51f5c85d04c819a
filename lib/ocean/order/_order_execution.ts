/**
 * Executes a quote, in one step of the wallet's lane: for each order, look
 * again for an earlier order to reuse (another call of this or another
 * process may just have paid), plan it again from the chain and refuse it
 * if the quote no longer matches, check the funds of the whole plan, then
 * send each transaction and wait for its receipt. The signal is checked
 * before every transaction; once an order's datatoken is paid for, its
 * `startOrder` still follows, then nothing more is sent. What each order
 * paid is read from its receipts.
 *
 * @module
 */

import { type Abi, erc20Abi, formatUnits, getAddress, parseEventLogs, zeroAddress } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "./_chain_context.ts";
import type { ChainHex, DatatokenOrder, PaidPart } from "./_order_types.ts";
import type { OrderQuote, PlannedTransaction, QuotedOrder } from "./_quote_types.ts";
import { DATATOKEN_ABI, DISPENSER_ABI, EXCHANGE_ABI, planOrder } from "./_order_plan.ts";
import { refuseChanged, refuseUnfunded } from "./_plan_checks.ts";
import { inTransactionLane } from "./_transaction_lane.ts";

/** A transaction as sent: its action and, once the chain took it, its hash. */
interface SentTransaction {
  action: PlannedTransaction["action"];
  hash?: ChainHex;
}

/** The signal fired before an order's payment: what of it was sent (approvals at most). */
class StoppedBeforePaying extends Error {
  constructor(readonly sent: readonly SentTransaction[]) {
    super("Stopped before paying");
  }
}

/** An order placed (or reused) in this step, with the asset it was for. */
interface Placed {
  order: QuotedOrder;
  result: DatatokenOrder;
}

/**
 * Executes a quote's orders in the wallet's lane.
 *
 * @param context The buyer's clients.
 * @param quote The quote.
 * @param signal Stops before the next transaction.
 * @returns One order per quoted order, in the quote's order.
 */
export function executeQuote(
  context: ChainContext,
  quote: Pick<OrderQuote, "chainId" | "orders" | "tokens" | "validUntil">,
  signal?: AbortSignal,
): Promise<DatatokenOrder[]> {
  if (quote.validUntil && quote.validUntil.getTime() < Date.now()) {
    throw new TidepoolError(
      `Cannot order: the quote expired at ${quote.validUntil.toISOString()} (its provider fee)`,
      { hint: "Nothing was sent. Quote again for a fresh provider fee, then order with it" },
    );
  }
  return inTransactionLane(quote.chainId, context.buyer, async () => {
    stopIfAborted(signal, []);
    const now: QuotedOrder[] = [];
    for (const quoted of quote.orders) {
      // An order given by the caller (a transferTxId) was checked on chain when quoted.
      if (quoted.source === "reused" && quoted.reuseWithinSeconds === undefined) {
        now.push(quoted);
        continue;
      }
      const fresh = await planOrder(context, quoted);
      if (fresh.source !== "reused") refuseChanged(quoted, fresh, quote.tokens);
      now.push(fresh);
    }
    await refuseUnfunded(context, now.filter((o) => o.source !== "reused"), quote.tokens);
    const placed: Placed[] = [];
    for (const order of now) {
      if (order.source === "reused" && order.reused) {
        placed.push({ order, result: order.reused });
        continue;
      }
      stopIfAborted(signal, placed);
      try {
        placed.push({ order, result: await sendOrder(context, order, quote, signal) });
      } catch (error) {
        if (error instanceof StoppedBeforePaying) throw stoppedError(signal!, placed, error.sent);
        throw afterPlacing(error, placed);
      }
    }
    return placed.map((p) => p.result);
  }, signal);
}

/** Sends one order's transactions, each mined before the next. */
async function sendOrder(
  context: ChainContext,
  order: QuotedOrder,
  quote: Pick<OrderQuote, "tokens">,
  signal?: AbortSignal,
): Promise<DatatokenOrder> {
  const sent: SentTransaction[] = [];
  let paidAt = -1;
  const receipts = [];
  for (const tx of order.transactions) {
    if (signal?.aborted && paidAt < 0) throw new StoppedBeforePaying(sent);
    const noted: SentTransaction = { action: tx.action };
    sent.push(noted);
    try {
      const hash = await context.wallet.writeContract({
        ...call(tx, order, context.buyer),
        chain: context.chain,
        account: context.account,
      });
      noted.hash = hash;
      const receipt = await context.reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (receipt.status !== "success") {
        throw new TidepoolError(`Cannot order: ${tx.action} reverted`, {
          details: `transaction ${hash}`,
          detailsLabel: "Chain said",
          hint: "Check the datatoken's pricing and your balances, then try again",
        });
      }
      receipts.push({ tx, receipt });
    } catch (error) {
      if (paidAt < 0) throw error;
      throw failedAfterPayment(error, sent, paidAt + 1, order.datatoken, order.source);
    }
    if (tx.action === "buy" || tx.action === "dispense") paidAt = sent.length - 1;
  }
  const last = receipts[receipts.length - 1].receipt;
  const paid = receipts.flatMap(({ tx, receipt }) =>
    paidParts(tx, receipt.logs, receipt.transactionHash, context.buyer, quote.tokens)
  );
  const price = paid.filter((p) => p.part === "price").reduce((sum, p) => sum + p.units, 0n);
  const priceToken = paid.find((p) => p.part === "price")?.token;
  return {
    txHash: last.transactionHash,
    blockNumber: last.blockNumber,
    pricePaid: formatUnits(
      price,
      priceToken ? quote.tokens.get(priceToken.toLowerCase())?.decimals ?? 18 : 18,
    ),
    source: order.source,
    paid,
    transactions: sent.map((s) => ({ action: s.action, txHash: s.hash! })),
  };
}

/** The contract call of a planned transaction. */
function call(tx: PlannedTransaction, order: QuotedOrder, buyer: ChainHex) {
  const one = 10n ** 18n;
  switch (tx.action) {
    case "approve":
      return {
        address: tx.contract,
        abi: erc20Abi as Abi,
        functionName: "approve",
        args: [tx.allowance!.spender, tx.allowance!.amount],
      };
    case "dispense":
      return {
        address: tx.contract,
        abi: DISPENSER_ABI as Abi,
        functionName: "dispense",
        args: [order.datatoken, one, buyer],
      };
    case "buy":
      return {
        address: tx.contract,
        abi: EXCHANGE_ABI as Abi,
        functionName: "buyDT",
        // The quoted amount is the most the exchange may take: a price raised meanwhile reverts.
        args: [tx.exchangeId, one, tx.payments[0].amount, zeroAddress, 0n],
      };
    case "startOrder": {
      const fee = order.providerFee;
      return {
        address: tx.contract,
        abi: DATATOKEN_ABI as Abi,
        functionName: "startOrder",
        args: [order.consumer, BigInt(order.serviceIndex), {
          providerFeeAddress: getAddress(fee.providerFeeAddress),
          providerFeeToken: getAddress(fee.providerFeeToken),
          providerFeeAmount: BigInt(fee.providerFeeAmount),
          v: fee.v,
          r: fee.r as ChainHex,
          s: fee.s as ChainHex,
          validUntil: BigInt(fee.validUntil),
          providerData: fee.providerData as ChainHex,
        }, {
          consumeMarketFeeAddress: zeroAddress,
          consumeMarketFeeToken: zeroAddress,
          consumeMarketFeeAmount: 0n,
        }],
      };
    }
  }
}

/**
 * What left the wallet in one transaction, from its ERC-20 `Transfer` logs.
 * Per token, when the transfers from the wallet add up to what the plan
 * said, each planned part is reported (a contract may split one part
 * between recipients: the datatoken goes partly to Ocean's community
 * collector); otherwise each transfer is reported, matched to a planned
 * part of the same amount or marked `unquoted`.
 */
function paidParts(
  tx: PlannedTransaction,
  logs: Parameters<typeof parseEventLogs>[0]["logs"],
  txHash: ChainHex,
  buyer: ChainHex,
  tokens: OrderQuote["tokens"],
): PaidPart[] {
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs })
    .filter((log) => getAddress(log.args.from) === buyer)
    .map((log) => ({
      token: getAddress(log.address),
      to: getAddress(log.args.to),
      units: log.args.value,
    }));
  const part = (token: ChainHex, units: bigint, payee: ChainHex, name: PaidPart["part"]) => ({
    part: name,
    token,
    amount: formatUnits(units, tokens.get(token.toLowerCase())?.decimals ?? 18),
    units,
    payee,
    txHash,
  });
  const paid: PaidPart[] = [];
  for (const token of new Set(transfers.map((t) => t.token))) {
    const sent = transfers.filter((t) => t.token === token);
    const planned = tx.payments.filter((p) => p.token === token);
    const sum = (list: readonly { units?: bigint; amount?: bigint }[]) =>
      list.reduce((total, x) => total + (x.units ?? x.amount ?? 0n), 0n);
    if (sum(sent) === sum(planned)) {
      paid.push(...planned.map((p) => part(token, p.amount, p.payee, p.part)));
      continue;
    }
    const open = [...planned];
    for (const transfer of sent) {
      const at = open.findIndex((p) => p.amount === transfer.units);
      const match = at >= 0 ? open.splice(at, 1)[0] : undefined;
      paid.push(
        part(token, transfer.units, match?.payee ?? transfer.to, match?.part ?? "unquoted"),
      );
    }
  }
  return paid;
}

/** Throws the stop error when the signal has fired. */
function stopIfAborted(signal: AbortSignal | undefined, placed: readonly Placed[]): void {
  if (signal?.aborted) throw stoppedError(signal, placed, []);
}

/** The transactions of placed orders, for errors: `did service: buy 0x..., startOrder 0x...`. */
function placedText(placed: readonly Placed[]): string {
  return placed.filter((p) => p.result.source !== "reused").map(({ order, result }) =>
    `${order.did ?? order.datatoken}${order.serviceId ? ` ${order.serviceId}` : ""}: ${
      result.transactions.map((t) => `${t.action} ${t.txHash}`).join(", ")
    }`
  ).join("; ");
}

/** The error of a stop: what was paid and ordered, with hashes, and that nothing more was sent. */
function stoppedError(
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
function afterPlacing(error: unknown, placed: readonly Placed[]): unknown {
  const ordered = placedText(placed);
  if (!ordered) return error;
  const short = error instanceof TidepoolError
    ? error.shortMessage
    : (error as Error)?.message ?? String(error);
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
function failedAfterPayment(
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
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
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
