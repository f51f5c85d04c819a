/**
 * Orders an asset's service on chain with the signer's viem account: a
 * quote read live, then executed in the wallet's lane.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import { TidepoolError } from "../../errors/errors.ts";
import {
  type AssetOrderNode,
  type OrderAssetParameters,
  SANDBOX_CHAIN_ID,
} from "./_asset_order_types.ts";
import { assetQuoteItem } from "./_asset_quote_item.ts";
import { priceCap } from "./_max_price.ts";
import { refusePaymentInReplay, refuseStopped } from "./_payment_mode.ts";
import { accountOf, preparedFromQuote, quoteOnChain } from "./_quote_runner.ts";
import type { OrderQuote, PreparedOrder } from "./_quote_types.ts";
import type { DatatokenOrder } from "./_order_types.ts";

export {
  type AssetOrderNode,
  type AssetOrderTarget,
  type OrderAssetOptions,
  type OrderAssetParameters,
  type QuoteOrderOptions,
  type QuoteOrderParameters,
  SANDBOX_CHAIN_ID,
} from "./_asset_order_types.ts";

/**
 * Orders one service of an asset on chain. It quotes first, from live reads
 * only (the DDO, never a recording; the node's `initialize`; the chain): the
 * DDO must be the DID's on the chain named (its NFT and chain id derive the
 * DID, and the NFT deployed the datatoken), the datatoken the node's and the
 * chain's, and the order's total in each token, every fee included, within
 * `maxPrice` (an amount is in the token the datatoken is priced in; other
 * tokens need a cap of their own, by address). Then, in the
 * wallet's lane (held across processes), it looks again for a still-valid
 * order of the signer (one is reused, not paid twice, also when calls run in
 * parallel), checks the chain still matches the quote and the wallet funds
 * the whole plan with gas, and sends each transaction, checking `signal`
 * before each. Given `quote`, exactly that quote is executed. Refused in
 * replay mode before anything is read or signed.
 *
 * @param node The Ocean node that serves the asset.
 * @param parameters `did`, `serviceId` and `signer` (the buyer), then chain
 *   RPC URL and id, `maxPrice`, a `quote` to execute, a `signal`.
 * @returns The order: transaction hash, block, and what was paid per part (from the receipts).
 * Without `maxPrice`, only the datatoken's price as the chain's exchange
 * lists it is paid: a provider or market fee above zero is refused, nothing
 * sent, until a cap allows it.
 *
 * @example Order the first service of an asset on the sandbox chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const order = await orderAsset(node, {
 *   did,
 *   serviceId: ddo.services[0].id,
 *   signer,
 *   rpcUrl: chain.rpcUrl,
 *   maxPrice: "2", // everything it takes, fees included, in the token the datatoken is priced in
 * });
 * const file = await node.download({ did, serviceId, txId: order.txHash, signer, dir: "data" });
 * ```
 */
export async function orderAsset(
  node: AssetOrderNode,
  parameters: OrderAssetParameters,
): Promise<DatatokenOrder> {
  checkCall("orderAsset", parameters);
  return await (await prepareAssetOrder(node, parameters)).send();
}

/**
 * Everything {@linkcode orderAsset} does before sending: the quote (or the
 * given one, checked to be for this asset, service, wallet and chain).
 * `send()` of the result executes it.
 *
 * @param node The Ocean node that serves the asset.
 * @param parameters As {@linkcode orderAsset}'s.
 * @returns The prepared order.
 */
export async function prepareAssetOrder(
  node: AssetOrderNode,
  parameters: OrderAssetParameters,
): Promise<PreparedOrder> {
  const { did, serviceId, signer, ...options } = parameters;
  refusePaymentInReplay("order", node.http?.cacheMode);
  refuseStopped(options.signal, "order");
  const maxPrice = priceCap(options.maxPrice);
  const account = await accountOf(signer);
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  const quote = options.quote
    ? givenQuote(options.quote, did, serviceId, chainId)
    : await quoteOnChain(options.rpcUrl, chainId, account, [
      await assetQuoteItem(node, did, serviceId, account.address, options),
    ], maxPrice);
  return preparedFromQuote(quote, options.rpcUrl, account, { maxPrice, signal: options.signal });
}

/** A quote the user passed must be of this one order on this chain. */
function givenQuote(quote: OrderQuote, did: string, serviceId: string, chainId: number) {
  const [order] = quote?.orders ?? [];
  if (
    quote?.orders?.length !== 1 || order.did !== did || order.serviceId !== serviceId ||
    quote.chainId !== chainId
  ) {
    throw new TidepoolError(
      `Cannot order ${did} service ${serviceId}: the quote given is for ${
        quote?.orders?.map((o) => `${o.did} service ${o.serviceId}`).join(", ") || "nothing"
      } on chain ${quote?.chainId}`,
      { hint: "Nothing was sent. Pass the quote quoteOrder returned for this asset and service" },
    );
  }
  return quote;
}
