/**
 * The escrow terms of a paid compute job, as the node's `initializeCompute`
 * states them in `payment`, read fail-closed: an amount that is not a
 * whole number of base units written as decimal digits (a decimal, an
 * exponent, hex, a negative, another type), an address that is not one, a
 * chain or token other than the one asked for, an escrow other than the one
 * trusted on the chain, or a lock time that is not a positive whole number
 * of seconds or is longer than allowed is refused before anything is paid. An
 * amount of zero (or no `payment`, as nodes without the escrow answer) is no
 * escrow charge: the orders pay for everything.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { showValue } from "../../errors/redact.ts";
import type { ChainHex } from "../order/_order_types.ts";
import type { InitializeComputeReturnType } from "./initialize_compute.ts";

/** What the node will lock in the payer's escrow for the job, checked. */
export interface EscrowTerms {
  /** The Escrow contract. */
  escrow: ChainHex;
  /** The node's address that locks and claims (the Escrow's payee). */
  payee: ChainHex;
  /** The token. */
  token: ChainHex;
  /** The chain. */
  chainId: number;
  /** The job's price the node locks, in base units of the token. */
  amount: bigint;
  /** How long the lock may last, in seconds (the authorization must allow it). */
  lockSeconds: number;
}

/** A value the node sent, short and never a key. */
function shown(value: unknown): string {
  if (typeof value === "string") return showValue(value);
  return (JSON.stringify(value) ?? String(value)).slice(0, 60);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The escrow terms of an initializeCompute answer, or undefined when the job
 * costs nothing beyond its orders.
 *
 * @param terms The node's answer.
 * @param asked The chain and token the payment was asked in, the Escrow
 *   trusted there (none known: a charge is refused) and the longest lock.
 * @returns The checked terms, or undefined.
 */
export function escrowTermsOf(
  terms: InitializeComputeReturnType,
  asked: {
    chainId: number;
    token: string;
    trustedEscrow: string | undefined;
    maxLockSeconds: number;
  },
): EscrowTerms | undefined {
  const payment = terms.payment as unknown;
  if (payment === undefined || payment === null) return undefined;
  const fields = (typeof payment === "object" ? payment : {}) as Record<string, unknown>;
  const amount = typeof payment === "object" ? fields.amount : payment;
  const problems: string[] = [];
  if (amount === 0) return undefined;
  if (typeof amount !== "string" || !/^[0-9]+$/.test(amount)) {
    problems.push(
      `amount ${shown(amount ?? null)} is not a whole number of base units in decimal digits`,
    );
  } else if (BigInt(amount) === 0n) {
    return undefined;
  }
  for (const field of ["escrowAddress", "payee", "token"]) {
    const value = fields[field];
    if (typeof value !== "string" || !ADDRESS.test(value)) {
      problems.push(`${field} ${shown(value ?? null)} is not an address`);
    }
  }
  if (
    typeof fields.token === "string" && fields.token.toLowerCase() !== asked.token.toLowerCase()
  ) {
    problems.push(`token ${shown(fields.token)} is not the token asked for (${asked.token})`);
  }
  if (fields.chainId !== undefined && Number(fields.chainId) !== asked.chainId) {
    problems.push(`chainId ${shown(fields.chainId)} is not the chain asked for (${asked.chainId})`);
  }
  const seconds = fields.minLockSeconds;
  if (typeof seconds !== "number" || !Number.isSafeInteger(seconds) || seconds <= 0) {
    problems.push(`minLockSeconds ${shown(seconds ?? null)} is not a positive whole number`);
  } else if (seconds > asked.maxLockSeconds) {
    problems.push(
      `minLockSeconds ${seconds} is longer than maxLockSeconds (${asked.maxLockSeconds}): ` +
        "the price would be held that long if the node never claims",
    );
  }
  if (problems.length > 0) {
    throw new TidepoolError(
      `Cannot start compute job: the node's escrow terms (payment of initializeCompute) are not usable`,
      {
        details: problems.join("; "),
        detailsLabel: "Node sent",
        hint:
          "Nothing was sent or paid. The node must state the job's price as base units in decimal digits, with its escrow, payee and token addresses; check the node's version",
      },
    );
  }
  const escrow = fields.escrowAddress as string;
  if (asked.trustedEscrow === undefined) {
    throw new TidepoolError(
      `Cannot start compute job: no Escrow contract is known on chain ${asked.chainId}, and the node's word alone is not trusted`,
      {
        details: `escrowAddress ${escrow}`,
        detailsLabel: "Node sent",
        hint:
          "Nothing was sent or paid. Give escrowAddress: the Escrow contract you trust on that chain (the sandbox's is sandbox.chain.contracts.escrow)",
      },
    );
  }
  if (escrow.toLowerCase() !== asked.trustedEscrow.toLowerCase()) {
    throw new TidepoolError(
      `Cannot start compute job: the node names ${escrow} as its escrow, not the Escrow contract trusted on chain ${asked.chainId}`,
      {
        details: `escrowAddress ${escrow}; trusted ${asked.trustedEscrow}`,
        detailsLabel: "Node sent",
        hint:
          "Nothing was sent or paid. A node paid through another contract could keep the deposit with no job; if that contract is the chain's Escrow, give it as escrowAddress",
      },
    );
  }
  return {
    escrow: fields.escrowAddress as ChainHex,
    payee: fields.payee as ChainHex,
    token: fields.token as ChainHex,
    chainId: asked.chainId,
    amount: BigInt(amount as string),
    lockSeconds: seconds as number,
  };
}

/** The terms in words, for comparing and for errors. */
function termsText(terms: EscrowTerms | undefined): string {
  if (!terms) return "no escrow charge";
  return `${terms.amount} base units of ${terms.token.toLowerCase()} locked for ${terms.lockSeconds} s by ${terms.payee.toLowerCase()} in escrow ${terms.escrow.toLowerCase()}`;
}

/**
 * Refuses to pay when the node's terms, asked again right before paying,
 * are not the ones quoted: a higher (or any other) amount, another payee,
 * escrow, token or lock time. Called before any transfer.
 *
 * @param quoted The terms of the quote.
 * @param now The terms the node states now.
 */
export function refuseChangedTerms(quoted: EscrowTerms, now: EscrowTerms | undefined): void {
  if (termsText(quoted) === termsText(now)) return;
  const more = now !== undefined && now.amount > quoted.amount;
  throw new TidepoolError(
    `Cannot start compute job: the node now asks ${
      more ? "more than it quoted" : "other escrow terms than it quoted"
    }`,
    {
      details: `quoted: ${termsText(quoted)}; now: ${termsText(now)}`,
      detailsLabel: "Escrow terms",
      hint:
        "Nothing was sent or paid. Quote again, look at the new terms, and start with that quote if you accept them",
    },
  );
}
