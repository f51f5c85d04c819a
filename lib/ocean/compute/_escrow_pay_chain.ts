/**
 * The escrow's reads and transactions of a paid compute start, loaded with
 * the first paid start (viem is not paid for by importing tidepool): the
 * payer's funds, authorization and allowance read live; the exact approval
 * and the deposit; the authorization the node needs; and the authorization
 * and allowance set back to what they were.
 *
 * @module
 */

import { erc20Abi, formatUnits, parseAbi } from "viem";
import { GAS_PRICE_MARGIN_PERCENT } from "../order/_plan_checks.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { ChainContext } from "../order/_chain_context.ts";
import type { ChainHex } from "../order/_order_types.ts";
import type { EscrowTerms } from "./_escrow_charge.ts";
import type { ComputeEscrowQuote, EscrowAuthorization, EscrowState } from "./_escrow_plan.ts";

const ESCROW_ABI = parseAbi([
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function getAuthorizations(address token, address payer, address payee) view returns ((address payee, uint256 maxLockedAmount, uint256 currentLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts, uint256 currentLocks)[])",
  "function deposit(address token, uint256 amount)",
  "function authorize(address token, address payee, uint256 maxLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
]);

type Reader = ChainContext["reader"];

/**
 * The payer's escrow for the terms' token and payee, read live.
 *
 * @param reader The chain reader.
 * @param terms The node's terms.
 * @param payer The payer.
 * @returns Funds free, the authorization, the allowance, the token.
 */
export async function readEscrowState(
  reader: Reader,
  terms: EscrowTerms,
  payer: ChainHex,
): Promise<EscrowState> {
  const funds = await reader.readContract({
    address: terms.escrow,
    abi: ESCROW_ABI,
    functionName: "getUserFunds",
    args: [payer, terms.token],
  });
  const authorization = await readAuthorization(reader, terms, payer);
  const allowance = await reader.readContract({
    address: terms.token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [payer, terms.escrow],
  });
  const decimals = Number(
    await reader.readContract({ address: terms.token, abi: ESCROW_ABI, functionName: "decimals" }),
  );
  const symbol = await reader.readContract({
    address: terms.token,
    abi: ESCROW_ABI,
    functionName: "symbol",
  }).catch(() => terms.token);
  return { available: funds.available, authorization, allowance, token: { symbol, decimals } };
}

/** The payee's authorization by the payer, or null when there is none. */
export async function readAuthorization(
  reader: Reader,
  terms: Pick<EscrowTerms, "escrow" | "token" | "payee">,
  payer: ChainHex,
): Promise<EscrowAuthorization | null> {
  const auths = await reader.readContract({
    address: terms.escrow,
    abi: ESCROW_ABI,
    functionName: "getAuthorizations",
    args: [terms.token, payer, terms.payee],
  });
  const [auth] = auths.filter((a) => a.payee.toLowerCase() === terms.payee.toLowerCase());
  return auth
    ? {
      maxLockedAmount: auth.maxLockedAmount,
      currentLockedAmount: auth.currentLockedAmount,
      maxLockSeconds: auth.maxLockSeconds,
      maxLockCounts: auth.maxLockCounts,
      currentLocks: auth.currentLocks,
    }
    : null;
}

/** What the escrow steps sent, for the result and for errors. */
export interface EscrowSent {
  /** The deposit transaction, once mined. */
  depositTx?: ChainHex;
  /** The authorization transaction, once mined. */
  authorizeTx?: ChainHex;
  /** The transaction setting the authorization back, once mined. */
  restoreTx?: ChainHex;
  /**
   * Set when the wallet's allowance to the Escrow could not be set back
   * after the deposit: it may be left above what it was.
   */
  allowanceNotRestored?: boolean;
}

/** Sends one escrow transaction and waits for its receipt; a revert is an error. */
async function send(
  context: ChainContext,
  address: ChainHex,
  functionName: "approve" | "deposit" | "authorize",
  args: readonly unknown[],
): Promise<ChainHex> {
  const hash = await context.wallet.writeContract({
    address,
    abi: functionName === "approve" ? erc20Abi : ESCROW_ABI,
    functionName,
    args,
    account: context.account,
    chain: context.chain,
  } as never);
  const receipt = await context.reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== "success") {
    throw new TidepoolError(`Cannot start compute job: the escrow's ${functionName} reverted`, {
      details: `transaction ${hash}`,
      detailsLabel: "Chain said",
      hint: "Read the escrow (escrowTable) and your balance, then quote again",
    });
  }
  return hash;
}

/**
 * Deposits what the plan needs (an exact approval first, the wallet's
 * allowance set back after) and gives the authorization the lock needs.
 * The signal is checked before each transaction: a stop after the deposit
 * leaves the deposit free in the escrow.
 *
 * @param context The payer's clients.
 * @param plan The escrow plan, read again in the lane.
 * @param sent Filled in as each transaction is mined.
 * @param stopped Throws when the signal fired.
 */
export async function fundAndAuthorize(
  context: ChainContext,
  plan: ComputeEscrowQuote,
  sent: EscrowSent,
  stopped: () => void,
): Promise<void> {
  if (plan.deposit > 0n) {
    stopped();
    let failed = false;
    try {
      // Inside the try: an approval mined but answered with an error is set back too.
      await send(context, plan.token, "approve", [plan.escrow, plan.deposit]);
      stopped();
      sent.depositTx = await send(context, plan.escrow, "deposit", [plan.token, plan.deposit]);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A reset that fails is recorded, never thrown over the error that came first.
      await restoreAllowance(context, plan).catch((reset) => {
        sent.allowanceNotRestored = true;
        if (!failed) throw reset;
      });
    }
  }
  if (plan.authorize) {
    stopped();
    const { maxLockedAmount, maxLockSeconds, maxLockCounts } = plan.authorize;
    sent.authorizeTx = await send(context, plan.escrow, "authorize", [
      plan.token,
      plan.payee,
      maxLockedAmount,
      maxLockSeconds,
      maxLockCounts,
    ]);
  }
}

/** Sets the wallet's allowance to the Escrow back to what it was, when it is not. */
async function restoreAllowance(context: ChainContext, plan: ComputeEscrowQuote): Promise<void> {
  const now = await context.reader.readContract({
    address: plan.token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [context.buyer, plan.escrow],
  });
  if (now === plan.allowance) return;
  await send(context, plan.token, "approve", [plan.escrow, plan.allowance]);
}

/**
 * Sets the payee's authorization back to what it was before the start
 * (none before: all zero, which allows no lock), when the chain says it is
 * not: read live rather than judged from the hashes received, since an
 * `authorize` the endpoint passed on and then answered with an error
 * stands on chain all the same (it left the node allowed to lock the
 * deposit with no job). The Escrow keeps the locks' amounts and counts
 * apart, so a lock made meanwhile is still claimed or cancelled as usual.
 *
 * @param context The payer's clients.
 * @param plan The escrow plan.
 * @param sent Filled in when mined.
 */
export async function restoreAuthorization(
  context: ChainContext,
  plan: ComputeEscrowQuote,
  sent: EscrowSent,
): Promise<void> {
  if (!plan.authorize) return;
  const before = plan.authorizationBefore;
  const now = await readAuthorization(context.reader, plan, context.buyer);
  const limits = (a: EscrowAuthorization | null) =>
    [a?.maxLockedAmount ?? 0n, a?.maxLockSeconds ?? 0n, a?.maxLockCounts ?? 0n] as const;
  const [amount, seconds, counts] = limits(before);
  if (limits(now).join() === [amount, seconds, counts].join()) return;
  sent.restoreTx = await send(context, plan.escrow, "authorize", [
    plan.token,
    plan.payee,
    amount,
    seconds,
    counts,
  ]);
}

/**
 * The payer's funds in the escrow for the plan's token, and what the plan's
 * payee holds locked of them, read live.
 *
 * @param context The payer's clients.
 * @param plan The escrow plan.
 * @returns Free funds, and the payee's locked amount.
 */
export async function readEscrowNow(
  context: ChainContext,
  plan: ComputeEscrowQuote,
): Promise<{ available: bigint; lockedByPayee: bigint }> {
  const funds = await context.reader.readContract({
    address: plan.escrow,
    abi: ESCROW_ABI,
    functionName: "getUserFunds",
    args: [context.buyer, plan.token],
  });
  const auth = await readAuthorization(context.reader, plan, context.buyer);
  return { available: funds.available, lockedByPayee: auth?.currentLockedAmount ?? 0n };
}

/**
 * Refuses a deposit the wallet cannot fund, with the orders' total in the
 * same token, and gas for every transaction of the orders and the escrow at
 * the current price with the orders' margin, before anything is sent.
 *
 * @param context The payer's clients.
 * @param plan The escrow plan.
 * @param ordered What the orders take of the escrow's token.
 * @param gas The gas of the orders' and the escrow's transactions together.
 */
export async function refuseUnfundedDeposit(
  context: ChainContext,
  plan: ComputeEscrowQuote,
  ordered: bigint,
  gas: bigint,
): Promise<void> {
  const needed = ordered + plan.deposit;
  const d = plan.tokenInfo.decimals;
  const held = await context.reader.readContract({
    address: plan.token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [context.buyer],
  });
  if (held < needed) {
    throw new TidepoolError(
      `Cannot start compute job: insufficient balance: ${
        formatUnits(held, d)
      } ${plan.tokenInfo.symbol} held, ${
        formatUnits(needed, d)
      } ${plan.tokenInfo.symbol} needed (escrow deposit ${formatUnits(plan.deposit, d)}, orders ${
        formatUnits(ordered, d)
      })`,
      { hint: `Fund ${context.buyer} with ${plan.tokenInfo.symbol}; nothing was sent` },
    );
  }
  const price = await context.reader.getGasPrice();
  const gasNeeded = gas * price * GAS_PRICE_MARGIN_PERCENT / 100n;
  const native = await context.reader.getBalance({ address: context.buyer });
  if (native >= gasNeeded) return;
  throw new TidepoolError(
    `Cannot start compute job: not enough of the chain's native token for gas: ${
      formatUnits(native, 18)
    } held, up to ${formatUnits(gasNeeded, 18)} needed for the orders and the escrow`,
    { hint: `Fund ${context.buyer} with the chain's native token; nothing was sent` },
  );
}
