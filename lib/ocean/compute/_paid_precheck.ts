/**
 * The checks a paid compute start makes against the environment before
 * anything is sent or ordered: the environment exists and takes payment on
 * the order chain in the chosen token, the signer may use it, and each
 * resource and the duration are within the environment's own limits (not the
 * free tier's). Every violation is collected, so one error lists them all.
 *
 * @module
 */

import { checkRef, type PrecheckInput } from "./_precheck.ts";
import type { ComputeEnvironmentLimits, EnvironmentAccess } from "./types.ts";

/** One fee entry of an environment, `fees[chainId][i]` in the node's answer. */
export interface EnvironmentFee {
  /** The token paid in. */
  feeToken: string;
  /** Price per resource unit and minute. */
  prices?: { id: string; price: number }[];
}

/** What the paid pre-checks found. */
export interface PaidPrecheckResult {
  /** Every violation, one sentence each. */
  violations: string[];
  /** The environment, when it exists. */
  environment?: ComputeEnvironmentLimits;
  /** The token the job is paid in, when the environment takes one on the chain. */
  token?: string;
}

/** The fee entries an environment lists for a chain. */
export function environmentFees(
  environment: ComputeEnvironmentLimits,
  chainId: number,
): EnvironmentFee[] {
  const fees = environment.fees as Record<string, unknown> | null | undefined;
  const entries = fees?.[String(chainId)];
  return Array.isArray(entries)
    ? entries.filter((e): e is EnvironmentFee => typeof e?.feeToken === "string")
    : [];
}

/**
 * Checks a paid compute request against the environments.
 *
 * @param input The request.
 * @param environments The node's environments.
 * @param payment The order chain and, when chosen, the token.
 * @returns The violations, the environment and the payment token.
 */
export function precheckPaidCompute(
  input: PrecheckInput,
  environments: readonly ComputeEnvironmentLimits[],
  payment: { chainId: number; token?: string },
): PaidPrecheckResult {
  const violations: string[] = [];
  checkRef(input.algorithm, "algorithm", violations);
  if (!Array.isArray(input.datasets) || input.datasets.length === 0) {
    violations.push("datasets is empty (give at least one { documentId, serviceId })");
  } else {
    input.datasets.forEach((ref, i) => checkRef(ref, `datasets[${i}]`, violations));
  }
  const environment = environments.find((env) => env.id === input.environment);
  if (!environment) {
    const offered = environments.map((env) => env.id).join(", ") || "none";
    violations.push(
      `environment ${input.environment} does not exist on this node (offered: ${offered})`,
    );
    return { violations };
  }
  const fees = environmentFees(environment, payment.chainId);
  if (fees.length === 0) {
    violations.push(
      `environment ${environment.id} takes no payment on chain ${payment.chainId} (it offers no paid jobs there)`,
    );
    return { violations, environment };
  }
  const token = payment.token ?? fees[0].feeToken;
  if (!fees.some((fee) => fee.feeToken.toLowerCase() === token.toLowerCase())) {
    violations.push(
      `environment ${environment.id} does not take token ${token} on chain ${payment.chainId} (it takes ${
        fees.map((fee) => fee.feeToken).join(", ")
      })`,
    );
  }
  const access = environment.access as EnvironmentAccess | undefined;
  const addresses = access?.addresses ?? [];
  const lists = access?.accessLists ?? [];
  if (
    addresses.length > 0 && lists.length === 0 &&
    !addresses.some((a) => a.toLowerCase() === input.address.toLowerCase())
  ) {
    violations.push(`${input.address} may not start paid jobs in ${environment.id}`);
  }
  for (const request of input.resources ?? []) {
    const limits = environment.resources?.find((r) => r.id === request?.id);
    if (!limits) {
      violations.push(`resource ${String(request?.id)} is not offered by ${environment.id}`);
      continue;
    }
    if (typeof request.amount !== "number" || !(request.amount >= 0)) {
      violations.push(
        `${request.id} amount ${String(request.amount)} is not a non-negative number`,
      );
    } else if (limits.max !== undefined && request.amount > limits.max) {
      violations.push(`${request.id} ${request.amount} exceeds the maximum of ${limits.max}`);
    } else if (limits.min !== undefined && request.amount < limits.min) {
      violations.push(`${request.id} ${request.amount} is below the minimum of ${limits.min}`);
    }
  }
  const duration = input.maxJobDuration;
  const min = environment.minJobDuration as number | undefined;
  const max = environment.maxJobDuration as number | undefined;
  if (duration !== undefined) {
    if (!Number.isInteger(duration) || duration <= 0) {
      violations.push(`maxJobDuration ${duration} is not a positive whole number of seconds`);
    } else if (max !== undefined && duration > max) {
      violations.push(`maxJobDuration ${duration} s exceeds the maximum of ${max} s`);
    } else if (min !== undefined && duration < min) {
      violations.push(`maxJobDuration ${duration} s is below the minimum of ${min} s`);
    }
  }
  return { violations, environment, token };
}
