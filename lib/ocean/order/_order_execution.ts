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
import {
  DATATOKEN_ABI,
  DISPENSER_ABI,
  EXCHANGE_ABI,
  GAS,
  type PlanAllowances,
  planOrder,
} from "./_order_plan.ts";
import { chainError } from "./_chain_errors.ts";
import {
  afterPlacing,
  failedAfterPayment,
  type Placed,
  type SentTransaction,
  stopIfAborted,
  stoppedError,
} from "./_order_failures.ts";
import { refuseChanged, refuseUnfunded } from "./_plan_checks.ts";
import { refuseUnpayableFees } from "./_fee_checks.ts";
import { inTransactionLane } from "./_transaction_lane.ts";

/** The signal fired before an order's payment: what of it was sent (approvals at most). */
class StoppedBeforePaying extends Error {
  constructor(readonly sent: readonly SentTransaction[]) {
    super("Stopped before paying");
  }
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
  return inTransactionLane(
    quote.chainId,
    context.buyer,
    () => executeInLane(context, quote, signal),
    signal,
  ).catch((error) => {
    // Stopped while waiting for the lane: the wait rejects with the signal's bare reason.
    if (signal?.aborted && error === signal.reason) throw stoppedError(signal, [], []);
    throw error;
  });
}

/**
 * The body of {@linkcode executeQuote}, for a caller already in the
 * wallet's lane (a paid compute start, whose escrow payment and start
 * follow the orders in the same lane step): re-plans, checks and sends.
 *
 * @param context The buyer's clients.
 * @param quote The quote.
 * @param signal Stops before the next transaction.
 * @returns One order per quoted order, in the quote's order.
 */
export async function executeInLane(
  context: ChainContext,
  quote: Pick<OrderQuote, "chainId" | "orders" | "tokens" | "validUntil">,
  signal?: AbortSignal,
): Promise<DatatokenOrder[]> {
  stopIfAborted(signal, []);
  const now: QuotedOrder[] = [];
  const allowances: PlanAllowances = new Map();
  for (const quoted of quote.orders) {
    // An order given by the caller (a transferTxId) was checked on chain when quoted.
    if (quoted.source === "reused" && quoted.reuseWithinSeconds === undefined) {
      now.push(quoted);
      continue;
    }
    const fresh = await planOrder(context, quoted, allowances);
    if (fresh.source !== "reused") refuseChanged(quoted, fresh, quote.tokens);
    now.push(fresh);
  }
  // The plan whole, before its first transaction: every fee startOrder would take, then the funds.
  await refuseUnpayableFees(now);
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
}

/**
 * Sends one order's transactions, each mined before the next. Approvals
 * that give an allowance back (`restores`) follow `startOrder`; when the
 * order stops or fails after an approval, every allowance it changed (the
 * exchange's as the datatoken's) is set back: the wallet's allowances end
 * as they were.
 */
async function sendOrder(
  context: ChainContext,
  order: QuotedOrder,
  quote: Pick<OrderQuote, "tokens">,
  signal?: AbortSignal,
): Promise<DatatokenOrder> {
  const sent: (SentTransaction & { planned: number })[] = [];
  let paidAt = -1;
  const receipts = [];
  const send = async (tx: PlannedTransaction) => {
    const noted: SentTransaction & { planned: number } = {
      action: tx.action,
      planned: order.transactions.indexOf(tx),
    };
    sent.push(noted);
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
    return receipt;
  };
  const restores = order.transactions.filter((tx) => tx.allowance?.restores);
  /**
   * After a stop or a failure: every allowance an approval of this order
   * changed, whatever its spender (the exchange, the datatoken), is set back
   * to what the wallet had before the order, as the chain says it now; a
   * restore that fails is noted unmined. An approval sent without a hash
   * back counts: the endpoint may have passed it on and lost the answer.
   */
  const restore = async () => {
    const changed = new Map<string, { token: ChainHex; spender: ChainHex; had: bigint }>();
    order.transactions.forEach((tx, i) => {
      const approved = sent.findIndex((s) => s.action === "approve" && s.planned === i);
      if (approved < 0 || !tx.allowance || tx.allowance.had === undefined) return;
      const { token, spender, had } = tx.allowance;
      changed.set(`${token} ${spender}`.toLowerCase(), { token, spender, had });
    });
    for (const { token, spender, had } of changed.values()) {
      const now = await context.reader.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [context.buyer, spender],
      }).catch(() => undefined);
      if (now === had) continue;
      await send({
        action: "approve",
        contract: token,
        gas: GAS.approve,
        allowance: { token, spender, amount: had, restores: true },
        payments: [],
      }).catch(() => undefined);
    }
  };
  let ordered: Awaited<ReturnType<typeof send>> | undefined;
  for (const tx of order.transactions.filter((t) => !t.allowance?.restores)) {
    if (signal?.aborted && paidAt < 0) {
      await restore();
      throw new StoppedBeforePaying(sent);
    }
    try {
      const receipt = await send(tx);
      receipts.push({ tx, receipt });
      if (tx.action === "startOrder") ordered = receipt;
    } catch (raw) {
      const error = chainError(raw, rpcUrlOf(context), `${DOING[tx.action]} of ${nameOf(order)}`);
      await restore();
      if (paidAt < 0) throw error;
      throw failedAfterPayment(error, sent, paidAt + 1, order.datatoken, order.source);
    }
    if (tx.action === "buy" || tx.action === "dispense") paidAt = sent.length - 1;
  }
  for (const tx of restores) {
    try {
      await send(tx);
    } catch (raw) {
      const error = chainError(
        raw,
        rpcUrlOf(context),
        `give back the allowance of ${nameOf(order)}`,
      );
      throw new TidepoolError(
        `${
          (error as TidepoolError).shortMessage ?? String(error)
        }; the order was placed: startOrder ${ordered!.transactionHash}`,
        {
          details: `${tx.allowance!.amount} base units of ${tx.allowance!.token} for ${
            tx.allowance!.spender
          }`,
          detailsLabel: "Allowance the wallet had",
          hint:
            "The order stands (use its startOrder hash as transferTxId). Approve the allowance again if another program needs it",
          cause: raw,
        },
      );
    }
  }
  // A contract that took less than quoted (a rate or fee lowered meanwhile) left the rest allowed.
  await restore();
  const last = ordered!;
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

/** What each transaction does, for errors: `Cannot buy the datatoken of did:op:...`. */
const DOING: Record<PlannedTransaction["action"], string> = {
  approve: "approve the payment",
  buy: "buy the datatoken",
  dispense: "dispense the datatoken",
  startOrder: "start the order",
};

/** An order's asset and service, or its datatoken. */
function nameOf(order: QuotedOrder): string {
  return order.did
    ? `${order.did}${order.serviceId ? ` service ${order.serviceId}` : ""}`
    : order.datatoken;
}

/** The chain's JSON-RPC URL (its origin names the chain in hints; a key in it is a registered secret). */
function rpcUrlOf(context: ChainContext): string {
  return context.chain.rpcUrls.default.http[0];
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
