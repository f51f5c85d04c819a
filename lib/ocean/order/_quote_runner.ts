/**
 * Quotes and their execution, as the public order calls reach them: viem
 * loads with the first quote (never with tidepool), every chain failure
 * becomes a tidepool error that keeps the RPC URL's key out, and a quote
 * becomes the `PreparedOrder` that `prepareOrder` has always returned.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { Signer } from "../signer.ts";
import { onChain } from "./_chain_errors.ts";
import type { ChainHex, DatatokenOrder, OrderAccount } from "./_order_types.ts";
import type { PriceCap } from "./_max_price.ts";
import type { QuoteItem } from "./_quote_reads.ts";
import type { OrderQuote, PreparedOrder } from "./_quote_types.ts";

/**
 * Reads a quote of the orders from the chain.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param chainId The chain id.
 * @param account The buyer's account.
 * @param items The orders.
 * @param maxPrice The cap of all the orders together, or undefined.
 * @returns The quote.
 */
export async function quoteOnChain(
  rpcUrl: string,
  chainId: number,
  account: OrderAccount,
  items: readonly QuoteItem[],
  maxPrice: PriceCap | undefined,
): Promise<OrderQuote> {
  // viem loads with the first quote: importing tidepool should not pay for it.
  const { chainContext } = await import("./_chain_context.ts");
  const { readQuote } = await import("./_quote_reads.ts");
  return await onChain(
    rpcUrl,
    "prepare the order",
    () => readQuote(chainContext(rpcUrl, chainId, account), chainId, items, maxPrice),
  );
}

/**
 * Executes a quote in the wallet's lane.
 *
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param account The buyer's account; it must be the quote's buyer.
 * @param quote The quote.
 * @param options The cap to hold the quote to, and the stop signal.
 * @returns One order per quoted order.
 */
export async function executeOnChain(
  rpcUrl: string,
  account: OrderAccount,
  quote: OrderQuote,
  options: { maxPrice?: PriceCap; signal?: AbortSignal } = {},
): Promise<DatatokenOrder[]> {
  if (account.address.toLowerCase() !== quote.buyer.toLowerCase()) {
    throw new TidepoolError(
      `Cannot order: the quote is for wallet ${quote.buyer}, the signer is ${account.address}`,
      { hint: "Nothing was sent. Quote with the wallet that pays" },
    );
  }
  const { chainContext } = await import("./_chain_context.ts");
  const { executeQuote } = await import("./_order_execution.ts");
  const { refuseAboveCap } = await import("./_plan_checks.ts");
  refuseAboveCap(quote.orders, options.maxPrice, quote.tokens);
  return await onChain(
    rpcUrl,
    "send the order",
    () => executeQuote(chainContext(rpcUrl, quote.chainId, account), quote, options.signal),
  );
}

/**
 * A one-order quote as a prepared order: its costs, and `send()` to execute it.
 *
 * @param quote The quote of one order.
 * @param rpcUrl The chain's JSON-RPC URL.
 * @param account The buyer's account.
 * @param options The cap and the stop signal for `send()`.
 * @returns The prepared order.
 */
export function preparedFromQuote(
  quote: OrderQuote,
  rpcUrl: string,
  account: OrderAccount,
  options: { maxPrice?: PriceCap; signal?: AbortSignal } = {},
): PreparedOrder {
  const [order] = quote.orders;
  const payments = order.transactions.flatMap((tx) => tx.payments);
  const price = payments.find((p) => p.part === "price");
  const fee = order.providerFee;
  const baseToken = price?.token;
  return {
    quote,
    source: order.source,
    price: price?.amount ?? 0n,
    baseToken,
    priceDecimals: baseToken ? quote.tokens.get(baseToken.toLowerCase())?.decimals ?? 18 : 18,
    feeToken: fee.providerFeeToken as ChainHex,
    feeAmount: order.source === "reused" ? 0n : BigInt(fee.providerFeeAmount),
    buyer: quote.buyer,
    balanceOf: (token) => balanceOn(rpcUrl, quote.chainId, account, token),
    send: async () => (await executeOnChain(rpcUrl, account, quote, options))[0],
  };
}

/** A wallet's balance of a token, live. */
async function balanceOn(
  rpcUrl: string,
  chainId: number,
  account: OrderAccount,
  token: ChainHex,
): Promise<bigint> {
  const { chainContext } = await import("./_chain_context.ts");
  const { erc20Abi } = await import("viem");
  const { reader, buyer } = chainContext(rpcUrl, chainId, account);
  return await onChain(
    rpcUrl,
    "read a balance",
    () =>
      reader.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [buyer],
      }),
  );
}

/**
 * The account a signer sends transactions with; the key stays inside the signer.
 *
 * @param signer A tidepool signer, or a viem local account.
 * @returns The account.
 */
export async function accountOf(signer: Signer | OrderAccount): Promise<OrderAccount> {
  const withAccount = signer as Signer & { viemAccount?: () => Promise<OrderAccount> };
  if (typeof withAccount.viemAccount === "function") return await withAccount.viemAccount();
  const account = signer as Partial<OrderAccount>;
  if (account.type === "local" && typeof account.signTransaction === "function") {
    return account as OrderAccount;
  }
  throw new TidepoolError("Cannot order: this signer cannot sign transactions", {
    hint: "Use signerFromPrivateKey or signerFromEnv, or pass a viem local account",
  });
}
