/**
 * A paid compute start whose environment charges through the Escrow, as one
 * step of the wallet's lane (one lane across processes): the node's terms
 * asked again and compared with the quote, the escrow read again live, the
 * cap and the funds checked, then the orders, the deposit, the
 * authorization, the start, and the authorization set back to what it was,
 * whatever happened. Another process's start of the same wallet waits for
 * the whole step, so it reads the escrow as this one left it.
 *
 * @module
 */

import { wholeUnits } from "../order/quote_table.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { type ChainContext, chainContext } from "../order/_chain_context.ts";
import { chainError } from "../order/_chain_errors.ts";
import type { PriceCap } from "../order/_max_price.ts";
import type { DatatokenOrder, OrderAccount } from "../order/_order_types.ts";
import { executeInLane } from "../order/_order_execution.ts";
import { stoppedError } from "../order/_order_failures.ts";
import { refuseAboveCap, totalGas, totalsByToken } from "../order/_plan_checks.ts";
import { inTransactionLane } from "../order/_transaction_lane.ts";
import { type EscrowTerms, refuseChangedTerms } from "./_escrow_charge.ts";
import { escrowGas, planEscrow, refuseEscrowAboveCap } from "./_escrow_plan.ts";
import type { ComputeEscrowQuote } from "./_escrow_plan.ts";
import {
  type EscrowSent,
  fundAndAuthorize,
  readEscrowNow,
  readEscrowState,
  refuseUnfundedDeposit,
  restoreAuthorization,
} from "./_escrow_pay_chain.ts";
import type { ComputeQuote } from "./_paid_compute_types.ts";
import type { ComputeJob } from "./types.ts";

/** What the lane step needs from the start: the node's terms now, and the start itself. */
export interface EscrowStartHooks {
  /** Asks the node's terms again (initializeCompute), checked. */
  terms(): Promise<EscrowTerms | undefined>;
  /** Signs and sends the start with these orders. */
  start(orders: readonly DatatokenOrder[]): Promise<ComputeJob[]>;
  /** Names the paid orders in an error after they were paid. */
  failed(error: unknown, orders: readonly DatatokenOrder[]): unknown;
}

/** What the step did. */
export interface EscrowStartResult {
  /** The orders, in the quote's order. */
  orders: DatatokenOrder[];
  /** The jobs the node started. */
  jobs: ComputeJob[];
  /** The escrow plan as executed, and its transactions. */
  escrow: ComputeEscrowQuote & EscrowSent;
}

/**
 * Executes a compute quote with an escrow part in the wallet's lane.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param account The payer; it must be the quote's buyer.
 * @param quote The quote (with `escrow`).
 * @param cap The job's cap.
 * @param hooks The terms, the start and the error naming paid orders.
 * @param signal Stops before the next transaction and before the start.
 * @returns The orders, the jobs and the escrow's transactions.
 */
export async function startWithEscrow(
  rpcUrl: string,
  account: OrderAccount,
  quote: ComputeQuote & { escrow: ComputeEscrowQuote },
  cap: PriceCap | undefined,
  hooks: EscrowStartHooks,
  signal?: AbortSignal,
): Promise<EscrowStartResult> {
  if (account.address.toLowerCase() !== quote.buyer.toLowerCase()) {
    throw new TidepoolError(
      `Cannot start compute job: the quote is for wallet ${quote.buyer}, the signer is ${account.address}`,
      { hint: "Nothing was sent. Quote with the wallet that pays" },
    );
  }
  if (quote.validUntil && quote.validUntil.getTime() < Date.now()) {
    throw new TidepoolError(
      `Cannot start compute job: the quote expired at ${quote.validUntil.toISOString()} (its provider fee)`,
      { hint: "Nothing was sent. Quote again for a fresh provider fee, then start with it" },
    );
  }
  refuseAboveCap(quote.orders, cap, quote.tokens);
  const context = chainContext(rpcUrl, quote.chainId, account);
  const action = "start a paid compute job";
  const stop = () => {
    if (signal?.aborted) throw stoppedError(signal, [], []);
  };
  return await inTransactionLane(quote.chainId, context.buyer, async () => {
    stop();
    // Live inputs only: the node's terms and the escrow, read again inside the lane.
    refuseChangedTerms(quote.escrow, await hooks.terms());
    const plan = planEscrow(
      quote.escrow,
      await readEscrowState(context.reader, quote.escrow, context.buyer),
    );
    refuseEscrowAboveCap(quote.orders, plan, cap, quote.tokens);
    refuseLargerDeposit(quote.escrow, plan);
    const paying = quote.orders.filter((o) => o.source !== "reused");
    const ordered = totalsByToken(paying).get(plan.token.toLowerCase()) ?? 0n;
    await refuseUnfundedDeposit(context, plan, ordered, totalGas(paying) + escrowGas(plan));
    const orders = await executeInLane(context, quote, signal);
    const sent: EscrowSent = {};
    const stopped = () => {
      if (!signal?.aborted) return;
      throw new TidepoolError(
        `Cannot ${action}: stopped by the signal before the start was signed`,
        {
          hint: "The job was not started",
          cause: signal.reason,
        },
      );
    };
    let jobs: ComputeJob[];
    try {
      await fundAndAuthorize(context, plan, sent, stopped);
      stopped();
      jobs = await hooks.start(orders);
    } catch (error) {
      const restored = await restoreAuthorization(context, plan, sent).then(
        () => true,
        () => false,
      );
      const left = await escrowLeft(context, plan, sent);
      throw hooks.failed(withEscrowState(error, left, restored, plan, sent), orders);
    }
    await restoreAuthorization(context, plan, sent).catch((raw) => {
      const before = plan.authorizationBefore;
      throw new TidepoolError(
        `The job ${
          jobs.map((j) => j.jobId).join(", ")
        } started, but the node's escrow authorization could not be set back`,
        {
          details: String(
            (chainError(raw, rpcUrl, "set the authorization back") as Error).message,
          ),
          hint: `The job runs and its results come as usual (its orders: ${
            orders.map((o) => o.txHash).join(", ")
          }). The node ${plan.payee} stays authorized for up to ${plan.authorize?.maxLockedAmount} ` +
            `base units; authorize it again as it was: maxLockedAmount ${
              before?.maxLockedAmount ?? 0n
            }, maxLockSeconds ${before?.maxLockSeconds ?? 0n}, maxLockCounts ${
              before?.maxLockCounts ?? 0n
            } (token ${plan.token}, Escrow ${plan.escrow})`,
          cause: raw,
        },
      );
    });
    return { orders, jobs, escrow: { ...plan, ...sent } };
  }, signal).catch((error) => {
    // Stopped while waiting for the lane: the wait rejects with the signal's bare reason.
    if (signal?.aborted && error === signal.reason) throw stoppedError(signal, [], []);
    throw error;
  });
}

/**
 * Refuses a deposit larger than the quote's: funds that were free in the
 * escrow when quoted were taken (by another job, a withdraw) and the
 * wallet would pay more than the quote showed. A smaller one is fine.
 */
function refuseLargerDeposit(quoted: ComputeEscrowQuote, now: ComputeEscrowQuote): void {
  if (now.deposit <= quoted.deposit) return;
  const units = (v: bigint) => `${wholeUnits(v, now.tokenInfo.decimals)} ${now.tokenInfo.symbol}`;
  throw new TidepoolError(
    `Cannot start compute job: the escrow now needs a deposit of ${
      units(now.deposit)
    }, the quote said ${units(quoted.deposit)}`,
    {
      details: `free in the escrow when quoted: ${units(quoted.available)}; now: ${
        units(now.available)
      }`,
      detailsLabel: "Escrow",
      hint:
        "Nothing was sent or paid. Quote again, look at the new deposit, and start with that quote",
    },
  );
}

/**
 * What the escrow holds of the payer after a failed or stopped start, in
 * words, read from the chain: a deposit or a lock made without tidepool
 * hearing of it (an answer lost on the way back, a stop while the node
 * answered) is said as it stands, never assumed from the hashes received.
 */
async function escrowLeft(
  context: ChainContext,
  plan: ComputeEscrowQuote,
  sent: EscrowSent,
): Promise<string> {
  const units = (v: bigint) => `${wholeUnits(v, plan.tokenInfo.decimals)} ${plan.tokenInfo.symbol}`;
  const deposited = sent.depositTx
    ? `${units(plan.deposit)} was deposited into the escrow ${plan.escrow} (${sent.depositTx})`
    : plan.deposit === 0n
    ? `nothing was deposited into the escrow ${plan.escrow} (enough was free)`
    : `no deposit into the escrow ${plan.escrow} was confirmed`;
  const now = await readEscrowNow(context, plan).catch(() => undefined);
  if (!now) {
    return `${deposited}; the escrow could not be read: see what it holds with escrowTable`;
  }
  const free = `${
    units(now.available)
  } free in the escrow now, which withdrawEscrow takes back or the next start uses`;
  const locked = now.lockedByPayee - (plan.authorizationBefore?.currentLockedAmount ?? 0n);
  if (locked <= 0n) return `${deposited}; ${free}`;
  return `${deposited}; ${free}; ${
    units(locked)
  } locked by the node ${plan.payee} for a job that may have started: list it with jobs(consumer) before starting another (the node claims it, or it comes back after the lock expires)`;
}

/** An error after escrow steps, saying what the escrow holds and whether the authorization is back. */
function withEscrowState(
  error: unknown,
  left: string,
  restored: boolean,
  plan: ComputeEscrowQuote,
  sent: EscrowSent,
): TidepoolError {
  const said = error instanceof TidepoolError
    ? error.shortMessage
    : (error as { shortMessage?: string })?.shortMessage ??
      String((error as Error)?.message ?? error);
  const authorization = !plan.authorize
    ? "the node's authorization was not changed"
    : restored
    ? "the node's authorization is back to what it was"
    : `the node's authorization could not be set back: it allows up to ${plan.authorize.maxLockedAmount} base units (it allowed ${
      plan.authorizationBefore?.maxLockedAmount ?? 0n
    }); authorize it again as before`;
  const earlier = error instanceof TidepoolError && error.hint ? `${error.hint}. ` : "";
  const allowance = sent.allowanceNotRestored
    ? `; the wallet's allowance to the Escrow ${plan.escrow} could not be set back to ${plan.allowance} base units: approve it again at that`
    : "";
  return new TidepoolError(said, {
    details: error instanceof TidepoolError ? error.details : undefined,
    detailsLabel: error instanceof TidepoolError ? error.detailsLabel : undefined,
    hint: `${earlier}${left}; ${authorization}${allowance}`,
    cause: error,
  });
}
