/**
 * Taking back from ocean-node's Escrow what no job holds: a quote of what
 * is available, and the withdraw itself, live and alone in the wallet's
 * lane (never from a recording, never past a fired signal, never more than
 * the funds not locked).
 *
 * @module
 */

import { formatUnits, getAddress, parseAbi, parseUnits } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import { checkOptions } from "../../options/check_options.ts";
import { SANDBOX_CHAIN_ID } from "./order_asset.ts";
import { chainContext } from "./_chain_context.ts";
import { refusePaymentInReplay, refuseStopped } from "./_payment_mode.ts";
import { inTransactionLane } from "./_transaction_lane.ts";
import type { ChainHex, OrderAccount } from "./_order_types.ts";

const ABI = parseAbi([
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function withdraw(address[] token, uint256[] amount)",
  "function decimals() view returns (uint8)",
]);

/** Options of {@linkcode quoteEscrowWithdraw} and {@linkcode withdrawEscrow}. */
export interface EscrowWithdrawOptions {
  /** The chain's JSON-RPC URL. */
  rpcUrl: string;
  /** The chain id; default the sandbox chain's. */
  chainId?: number;
  /** The Escrow contract (`payment.escrowAddress` of `initializeCompute`). */
  escrow: string;
  /** The token to take back. */
  token: string;
  /** The payer's account (it signs locally). */
  account: OrderAccount;
  /** How much, in whole tokens (a decimal string); default all that is available. */
  amount?: string;
  /** Stops before anything is sent (never a transaction under way). */
  signal?: AbortSignal;
}

/** What a withdraw takes back, as read live from the Escrow. */
export interface EscrowWithdrawQuote {
  /** The Escrow. */
  escrow: ChainHex;
  /** The token. */
  token: ChainHex;
  /** The payer, who receives the amount. */
  payer: ChainHex;
  /** The amount the withdraw takes back (whole tokens, exact). */
  amount: string;
  /** Available before: the most a withdraw may take. */
  available: string;
  /** Locked by jobs: never withdrawn until claimed or cancelled after expiry. */
  locked: string;
}

/** What {@linkcode withdrawEscrow} did. */
export interface EscrowWithdrawResult extends EscrowWithdrawQuote {
  /** The withdraw transaction. */
  tx: ChainHex;
  /** Available after, read from the chain. */
  availableAfter: string;
}

const RULES = {
  rpcUrl: "string",
  chainId: "integer",
  escrow: "string",
  token: "string",
  account: "object",
  amount: "string",
  signal: "signal",
} as const;

/**
 * What a withdraw would take back, read live: the amount asked (default all
 * that is available), the funds available and those locked. Nothing is
 * signed or sent; an amount above what is available is refused.
 *
 * @param options Chain, Escrow, token, account, amount.
 * @returns The quote.
 * @example What can be taken back
 * ```ts ignore
 * const quote = await quoteEscrowWithdraw({ rpcUrl, escrow, token, account });
 * console.log(`${quote.amount} available, ${quote.locked} locked by jobs`);
 * ```
 */
export async function quoteEscrowWithdraw(
  options: EscrowWithdrawOptions,
): Promise<EscrowWithdrawQuote> {
  checkOptions("quoteEscrowWithdraw", options, RULES);
  refusePaymentInReplay("quote a withdraw from the escrow");
  const context = chainContext(
    options.rpcUrl,
    options.chainId ?? SANDBOX_CHAIN_ID,
    options.account,
  );
  return (await readQuote(context.reader, options)).quote;
}

/**
 * Withdraws from the Escrow what no job holds: the quote is read again live
 * inside the wallet's lane (one lane across processes), then one `withdraw`
 * is sent and awaited to its receipt. Refused before anything is sent in
 * replay, after the signal fired, for an amount above what is available, or
 * when nothing is available.
 *
 * @param options Chain, Escrow, token, account, amount, signal.
 * @returns The quote that was executed, the transaction and what is available after.
 * @example Taking back what a failed job left
 * ```ts ignore
 * const done = await withdrawEscrow({ rpcUrl, escrow, token, account });
 * console.log(`took back ${done.amount} in ${done.tx}`);
 * ```
 */
export async function withdrawEscrow(
  options: EscrowWithdrawOptions,
): Promise<EscrowWithdrawResult> {
  checkOptions("withdrawEscrow", options, RULES);
  const action = "withdraw from the escrow";
  refuseStopped(options.signal, action);
  refusePaymentInReplay(action);
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  const context = chainContext(options.rpcUrl, chainId, options.account);
  return await inTransactionLane(chainId, context.buyer, async () => {
    const { quote, units } = await readQuote(context.reader, options);
    refuseStopped(options.signal, action);
    const hash = await context.wallet.writeContract({
      address: quote.escrow,
      abi: ABI,
      functionName: "withdraw",
      args: [[quote.token], [units]],
      account: context.account,
      chain: context.chain,
    });
    const receipt = await context.reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") {
      throw new TidepoolError(`Cannot ${action}: the withdraw reverted`, {
        details: `transaction ${hash}`,
        detailsLabel: "Chain said",
        hint: "Read the escrow again (escrowTable): a lock may have been made meanwhile",
      });
    }
    const after = await funds(context.reader, quote);
    return { ...quote, tx: hash, availableAfter: after.available };
  }, options.signal);
}

type Reader = ReturnType<typeof chainContext>["reader"];

async function funds(
  reader: Reader,
  quote: Pick<EscrowWithdrawQuote, "escrow" | "token" | "payer">,
) {
  const decimals = Number(
    await reader.readContract({ address: quote.token, abi: ABI, functionName: "decimals" }),
  );
  const held = await reader.readContract({
    address: quote.escrow,
    abi: ABI,
    functionName: "getUserFunds",
    args: [quote.payer, quote.token],
  });
  return {
    decimals,
    raw: held,
    available: formatUnits(held.available, decimals),
    locked: formatUnits(held.locked, decimals),
  };
}

async function readQuote(
  reader: Reader,
  options: EscrowWithdrawOptions,
): Promise<{ quote: EscrowWithdrawQuote; units: bigint }> {
  const base = {
    escrow: getAddress(options.escrow),
    token: getAddress(options.token),
    payer: getAddress(options.account.address),
  };
  const held = await funds(reader, base);
  let units: bigint;
  try {
    units = options.amount === undefined
      ? held.raw.available
      : parseUnits(options.amount, held.decimals);
  } catch {
    throw new TidepoolError(`Invalid amount ${options.amount}: expected a decimal number`, {
      hint: 'Give the amount in whole tokens, such as "2.5"',
    });
  }
  if (units <= 0n) {
    throw new TidepoolError(
      `Cannot withdraw from the escrow: nothing to take back (${held.available} available, ${held.locked} locked by jobs)`,
      {
        hint:
          "Locked funds come back when the node claims less than it locked, or after the lock expires (cancelExpiredLock); nothing was sent",
      },
    );
  }
  if (units > held.raw.available) {
    throw new TidepoolError(
      `Cannot withdraw ${options.amount} from the escrow: only ${held.available} is available (${held.locked} locked by jobs)`,
      { hint: `Withdraw at most ${held.available}; nothing was sent` },
    );
  }
  return {
    quote: {
      escrow: base.escrow,
      token: base.token,
      payer: base.payer,
      amount: formatUnits(units, held.decimals),
      available: held.available,
      locked: held.locked,
    },
    units,
  };
}
