/**
 * The escrow part of a paid compute job, planned from live reads: what to
 * deposit (the job's price less the funds already free in the escrow), the
 * authorization the node needs to lock it (exactly that lock during the
 * start, whatever the standing one allows, and set back after the start),
 * and the lock the node will make. The cap of the whole job holds for its orders and this price
 * together. No viem here: the reads are in `_escrow_pay_chain.ts`.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { PriceCap } from "../order/_max_price.ts";
import type { ChainHex } from "../order/_order_types.ts";
import { amountText, capUnits, totalsByToken } from "../order/_plan_checks.ts";
import type { QuotedOrder, QuotedToken } from "../order/_quote_types.ts";
import type { EscrowTerms } from "./_escrow_charge.ts";

/** An authorization of a payee in the Escrow, as `getAuthorizations` returns it. */
export interface EscrowAuthorization {
  /** The most the payee may hold locked at once, base units. */
  maxLockedAmount: bigint;
  /** What it holds locked now. */
  currentLockedAmount: bigint;
  /** The longest lock it may make, seconds. */
  maxLockSeconds: bigint;
  /** The most locks it may hold at once. */
  maxLockCounts: bigint;
  /** The locks it holds now. */
  currentLocks: bigint;
}

/** The payer's side of the Escrow for one token and payee, read live. */
export interface EscrowState {
  /** Funds free in the escrow (may pay the lock without a deposit). */
  available: bigint;
  /** The payee's authorization, or null when the payer never authorized it. */
  authorization: EscrowAuthorization | null;
  /** What the wallet allows the Escrow to take of the token. */
  allowance: bigint;
  /** The token's symbol and decimals. */
  token: QuotedToken;
}

/** The escrow part of a compute quote: exactly what the start will send, and what the node will lock. */
export interface ComputeEscrowQuote extends EscrowTerms {
  /** Funds free in the escrow when quoted. */
  available: bigint;
  /** What the start deposits: the price less what is free, never below 0. */
  deposit: bigint;
  /** The wallet's allowance to the Escrow before (set back after the deposit). */
  allowance: bigint;
  /** The payee's authorization before (null: none); the start sets it back to this. */
  authorizationBefore: EscrowAuthorization | null;
  /**
   * The authorization the start gives for the lock: exactly the locked
   * amount plus the price, the lock's seconds and one more lock; null when
   * the standing one is exactly that.
   */
  authorize: { maxLockedAmount: bigint; maxLockSeconds: bigint; maxLockCounts: bigint } | null;
  /** The token's symbol and decimals. */
  tokenInfo: QuotedToken;
}

/** Gas of each escrow transaction at most: a first deposit of a token was sent with 163,899 and a first authorization with 148,478 (the real Escrow 2.6.0 on anvil). */
export const ESCROW_GAS = { approve: 80_000n, deposit: 200_000n, authorize: 200_000n } as const;

/**
 * The escrow plan of a job from its terms and the payer's escrow now.
 *
 * @param terms The node's checked terms.
 * @param state The payer's escrow, read live.
 * @returns The plan.
 */
export function planEscrow(terms: EscrowTerms, state: EscrowState): ComputeEscrowQuote {
  const deposit = terms.amount > state.available ? terms.amount - state.available : 0n;
  const before = state.authorization;
  const lockSeconds = BigInt(terms.lockSeconds);
  // Exactly the lock during the start, even under a larger standing
  // authorization: the Escrow then refuses any lock above the quote.
  const exact = {
    maxLockedAmount: (before?.currentLockedAmount ?? 0n) + terms.amount,
    maxLockSeconds: lockSeconds,
    maxLockCounts: (before?.currentLocks ?? 0n) + 1n,
  };
  const same = before !== null && before.maxLockedAmount === exact.maxLockedAmount &&
    before.maxLockSeconds === exact.maxLockSeconds && before.maxLockCounts === exact.maxLockCounts;
  const authorize = same ? null : exact;
  return {
    ...terms,
    available: state.available,
    deposit,
    allowance: state.allowance,
    authorizationBefore: before,
    authorize,
    tokenInfo: state.token,
  };
}

/**
 * Refuses a job whose orders and escrow price together, in the escrow's
 * token, are above the cap, or are not capped at all: without `maxPrice`
 * nothing is paid through the escrow; an amount alone caps the escrow only
 * when it is the one token the datatokens are priced in.
 *
 * @param orders The job's orders.
 * @param escrow The escrow plan.
 * @param cap The job's cap.
 * @param tokens Symbols and decimals.
 */
export function refuseEscrowAboveCap(
  orders: readonly QuotedOrder[],
  escrow: ComputeEscrowQuote,
  cap: PriceCap | undefined,
  tokens: ReadonlyMap<string, QuotedToken>,
): void {
  const token = escrow.token.toLowerCase();
  const all = new Map(tokens).set(token, escrow.tokenInfo);
  const ordered = totalsByToken(orders).get(token) ?? 0n;
  const total = ordered + escrow.amount;
  const parts = `escrow lock ${amountText(escrow.amount, token, all)} to ${escrow.payee}${
    ordered > 0n ? `; orders ${amountText(ordered, token, all)}` : ""
  }`;
  const perToken = `maxPrice: { "${token}": "…" }`;
  if (cap === undefined) {
    throw new TidepoolError(
      `Cannot start compute job: it would pay ${
        amountText(escrow.amount, token, all)
      } for its resources through the escrow, and no maxPrice was given`,
      {
        details: parts,
        detailsLabel: "Parts",
        hint:
          `Nothing was sent or paid. Without maxPrice nothing is paid through the escrow; quote first (quoteCompute) to see every part, then give the most you accept for the whole job: ${perToken}`,
      },
    );
  }
  let limit: string | undefined;
  if (typeof cap === "string") {
    const priced = new Set(
      orders.flatMap((o) => o.transactions.flatMap((tx) => tx.payments))
        .filter((p) => p.part === "price").map((p) => p.token.toLowerCase()),
    );
    limit = priced.size === 1 && priced.has(token) ? cap : undefined;
  } else {
    limit = cap[token];
  }
  if (limit === undefined) {
    throw new TidepoolError(
      `Cannot start compute job: it would pay ${
        amountText(total, token, all)
      } (token ${token}), a token maxPrice does not cap`,
      {
        details: parts,
        detailsLabel: "Parts",
        hint:
          `Nothing was sent or paid. An amount alone caps only the token the datatokens are priced in; cap the escrow's token by its address: ${perToken}`,
      },
    );
  }
  if (total <= capUnits(limit, escrow.tokenInfo.decimals)) return;
  throw new TidepoolError(
    `Cannot start compute job: it would take ${
      amountText(total, token, all)
    } for the whole job, above maxPrice ${limit}`,
    {
      details: parts,
      detailsLabel: "Parts",
      hint:
        "Nothing was sent or paid. maxPrice caps the whole job: its orders and the price the node locks in the escrow; raise it if you accept these parts",
    },
  );
}

/** An address written as the quote's tables write addresses. */
const lower = (address: string) => address.toLowerCase() as ChainHex;

/**
 * The escrow's rows of a quote's transactions table (`QUOTE_TRANSACTION_COLUMNS`),
 * numbered on from `step`: the approval and deposit, the authorization, the
 * node's lock, and the authorization and approval set back.
 *
 * @param escrow The plan.
 * @param step The last step of the orders.
 * @param units Base units as whole tokens.
 * @returns The rows.
 */
export function escrowRows(
  escrow: ComputeEscrowQuote,
  step: number,
  units: (amount: bigint) => string,
): Record<string, unknown>[] {
  const token = lower(escrow.token);
  const base = { did: null, serviceId: null, token, symbol: escrow.tokenInfo.symbol };
  const rows: Record<string, unknown>[] = [];
  const add = (row: Record<string, unknown>) =>
    rows.push({ step: step + rows.length + 1, ...base, ...row });
  if (escrow.deposit > 0n) {
    add({
      action: "approve",
      contract: token,
      part: "allowance",
      amount: units(escrow.deposit),
      payee: lower(escrow.escrow),
      gas: Number(ESCROW_GAS.approve),
    });
    add({
      action: "deposit",
      contract: lower(escrow.escrow),
      part: "escrow deposit",
      amount: units(escrow.deposit),
      payee: lower(escrow.escrow),
      gas: Number(ESCROW_GAS.deposit),
    });
  }
  if (escrow.authorize) {
    add({
      action: "authorize",
      contract: lower(escrow.escrow),
      part: "authorization",
      amount: units(escrow.authorize.maxLockedAmount),
      payee: lower(escrow.payee),
      gas: Number(ESCROW_GAS.authorize),
    });
  }
  add({
    action: "lock (by the node)",
    contract: lower(escrow.escrow),
    part: "escrow lock",
    amount: units(escrow.amount),
    payee: lower(escrow.payee),
    gas: null,
  });
  if (escrow.authorize) {
    add({
      action: "authorize",
      contract: lower(escrow.escrow),
      part: "authorization",
      amount: units(escrow.authorizationBefore?.maxLockedAmount ?? 0n),
      payee: lower(escrow.payee),
      gas: Number(ESCROW_GAS.authorize),
    });
  }
  if (escrow.deposit > 0n && escrow.allowance > 0n) {
    add({
      action: "approve",
      contract: token,
      part: "allowance",
      amount: units(escrow.allowance),
      payee: lower(escrow.escrow),
      gas: Number(ESCROW_GAS.approve),
    });
  }
  return rows;
}

/** Gas of the escrow's transactions the payer sends. */
export function escrowGas(escrow: ComputeEscrowQuote): bigint {
  let gas = 0n;
  if (escrow.deposit > 0n) gas += ESCROW_GAS.approve + ESCROW_GAS.deposit;
  if (escrow.deposit > 0n && escrow.allowance > 0n) gas += ESCROW_GAS.approve;
  if (escrow.authorize) gas += 2n * ESCROW_GAS.authorize;
  return gas;
}
