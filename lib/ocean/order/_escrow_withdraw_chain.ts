/**
 * The Escrow's reads and the withdraw transaction behind
 * `quoteEscrowWithdraw` and `withdrawEscrow`, loaded with
 * the first call: viem is not paid for by importing tidepool.
 *
 * @module
 */

import { formatUnits, getAddress, parseAbi, parseUnits } from "viem";
import { TidepoolError } from "../../errors/errors.ts";
import { chainContext } from "./_chain_context.ts";
import { refuseStopped } from "./_payment_mode.ts";
import { inTransactionLane } from "./_transaction_lane.ts";
import type {
  EscrowWithdrawOptions,
  EscrowWithdrawQuote,
  EscrowWithdrawResult,
} from "./_escrow_withdraw_types.ts";

const ABI = parseAbi([
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function withdraw(address[] token, uint256[] amount)",
  "function decimals() view returns (uint8)",
]);

/** The quote of `quoteEscrowWithdraw`, read live. */
export async function quoteOnChain(
  options: EscrowWithdrawOptions,
  chainId: number,
): Promise<EscrowWithdrawQuote> {
  const context = chainContext(options.rpcUrl, chainId, options.account);
  return (await readQuote(context.reader, options)).quote;
}

/** The withdraw of `withdrawEscrow`: quoted again and sent in the wallet's lane. */
export async function withdrawOnChain(
  options: EscrowWithdrawOptions,
  chainId: number,
  action: string,
): Promise<EscrowWithdrawResult> {
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
