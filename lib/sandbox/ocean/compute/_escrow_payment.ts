/**
 * Paid compute through the Escrow, as ocean-node runs it: an environment
 * whose resources have a price on the chain answers `initializeCompute`
 * with `payment {escrowAddress, payee, chainId, minLockSeconds, token,
 * amount}`, locks that amount in the payer's escrow when the job starts,
 * and claims it when the job settles (71); a failed job's lock is left to
 * expire, after which the payer takes it back. The sandbox claims when the
 * job's end is first seen (a job listing), as it has no clock of its own.
 *
 * @module
 */

import { parseUnits } from "viem";
import { type ComputeContext, text } from "./_context.ts";
import type { JobInput } from "./job_engine.ts";
import type { SandboxEnvironment } from "./trial_environment.ts";

type Payment = { chainId: number; token: string };
type Limits = { resources: { id: string; amount: number }[]; duration: number };

/** What a job costs in base units (18 decimals): each resource's price per minute × amount × minutes. */
export function jobCost(
  environment: SandboxEnvironment,
  payment: Payment,
  limits: Limits,
): bigint {
  const fee = environment.fees?.[String(payment.chainId)]?.find((f) =>
    f.feeToken.toLowerCase() === payment.token.toLowerCase()
  );
  const minutes = BigInt(Math.ceil(limits.duration / 60));
  let cost = 0n;
  for (const resource of limits.resources) {
    const price = fee?.prices.find((p) => p.id === resource.id)?.price ?? 0;
    cost += parseUnits(String(price), 18) * BigInt(resource.amount) * minutes;
  }
  return cost;
}

/**
 * The `payment` of an initializeCompute answer: the escrow's terms when the
 * job costs anything (the request must then fit the environment's limits),
 * else the payee and token with amount 0 (the orders pay for everything).
 */
export function paymentTerms(
  context: ComputeContext,
  environment: SandboxEnvironment,
  payment: Payment,
  limits: Limits | Response,
): Record<string, unknown> | Response {
  const escrow = context.chain?.escrow;
  const free = { payee: environment.consumerAddress, ...payment, amount: "0" };
  if (!escrow || !isPriced(environment, payment)) return free;
  if (limits instanceof Response) return limits;
  return {
    escrowAddress: escrow.escrowAddress,
    payee: escrow.payee,
    chainId: payment.chainId,
    minLockSeconds: limits.duration + escrow.claimTimeoutSeconds,
    token: payment.token,
    amount: jobCost(environment, payment, limits).toString(),
  };
}

/** Whether any resource of the environment has a price in this token on this chain. */
function isPriced(environment: SandboxEnvironment, payment: Payment): boolean {
  return (environment.fees?.[String(payment.chainId)] ?? []).some((fee) =>
    fee.feeToken.toLowerCase() === payment.token.toLowerCase() &&
    fee.prices.some((p) => p.price > 0)
  );
}

/** Locks the job's price before it starts; the escrow part of its payment, or the node's 400. */
export async function lockJobPrice(
  context: ComputeContext,
  environment: SandboxEnvironment,
  payment: Payment,
  limits: Limits,
  payer: string,
  jobId: string,
): Promise<NonNullable<JobInput["payment"]>["escrow"] | Response | undefined> {
  const escrow = context.chain?.escrow;
  const quoted = jobCost(environment, payment, limits);
  if (!escrow || quoted === 0n) return undefined;
  const factor = context.faults.escrowLockFactor ?? 1;
  const locked = quoted * BigInt(factor);
  const result = await escrow.lock({
    jobId,
    payer,
    token: payment.token,
    amount: locked,
    seconds: limits.duration + escrow.claimTimeoutSeconds,
    // A node that locks more than it quoted does not check first: the Escrow decides.
    checked: factor === 1,
  });
  if ("error" in result) return text(400, result.error);
  return { payer, locked };
}

/** Claims the lock of every paid job that has finished (71 settling, 70); a failed job's lock is left to expire. */
export async function settleEndedJobs(context: ComputeContext): Promise<void> {
  const escrow = context.chain?.escrow;
  if (!escrow || context.faults.escrowNeverClaims) return;
  for (const job of context.engine.all()) {
    const held = job.payment?.escrow;
    if (!held || held.settled) continue;
    const status = context.engine.status(job);
    if (status === 41) held.settled = "left";
    // 71 is ocean-node's "Job settling": the claim is made then.
    if (status !== 70 && status !== 71) continue;
    held.settled = "claimed";
    await escrow.claim({
      jobId: job.jobId,
      payer: held.payer,
      token: job.payment!.token,
      amount: held.locked,
      proof: JSON.stringify({ jobId: job.jobId, status, exitCode: job.exitCode }),
    });
  }
}
