/**
 * What ordering a service will send and pay, before anything is signed:
 * the DDO, the node's provider fee and the chain, all read live.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import {
  type AssetOrderNode,
  type QuoteOrderParameters,
  SANDBOX_CHAIN_ID,
} from "./_asset_order_types.ts";
import { assetQuoteItem } from "./_asset_quote_item.ts";
import { refusePaymentInReplay } from "./_payment_mode.ts";
import { accountOf, quoteOnChain } from "./_quote_runner.ts";
import type { OrderQuote } from "./_quote_types.ts";
import { priceCap } from "./_max_price.ts";

/**
 * Quotes an order of one service of an asset: reads the DDO live (never
 * from a recording), asks the node's `initialize` for the signed provider
 * fee, checks that the DDO is the DID's on the chain named (the DID derives
 * from its NFT and chain id, and that NFT deployed the datatoken), that the
 * DDO and the node name the same datatoken and that the chain sells it, and plans every transaction: approvals, the purchase (or
 * the dispenser), `startOrder`, each with what it pays and to whom, and its
 * gas. An earlier still-valid order of the wallet is quoted as reused, with
 * nothing to send. Nothing is signed or sent. Refused in replay mode, and
 * above `maxPrice`, naming each part.
 *
 * @param node The Ocean node that serves the asset.
 * @param parameters `did`, `serviceId`, `signer` (the wallet that would
 *   pay), chain RPC URL and id, `maxPrice`.
 * @returns The quote: `transactions` and `totals` tables; pass it to `orderAsset` as `quote`.
 * @example Look at the price before paying
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const quote = await quoteOrder(node, { did, serviceId, signer, rpcUrl: chain.rpcUrl });
 * quote.totals.print();
 * // A fee in the quote is paid only under a cap that allows it.
 * const order = await orderAsset(node, {
 *   did, serviceId, signer, rpcUrl: chain.rpcUrl, quote, maxPrice: "2",
 * });
 * ```
 */
export async function quoteOrder(
  node: AssetOrderNode,
  parameters: QuoteOrderParameters,
): Promise<OrderQuote> {
  checkCall("quoteOrder", parameters);
  const { did, serviceId, signer, ...options } = parameters;
  refusePaymentInReplay("quote an order", node.http?.cacheMode);
  const maxPrice = priceCap(options.maxPrice);
  const account = await accountOf(signer);
  const item = await assetQuoteItem(node, did, serviceId, account.address, options);
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  return await quoteOnChain(options.rpcUrl, chainId, account, [item], maxPrice);
}
