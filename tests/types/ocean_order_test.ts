/**
 * Type-level tests of the order calls of `@tidepool/tidepool`: what each
 * returns, and the call shapes it refuses (the positional form of before
 * issue 58 among them). Nothing here runs a request: `deno check` (and the
 * check `deno test` makes first) fails when a line with `@ts-expect-error`
 * stops being an error, or an assignment stops holding.
 */

import {
  type DatatokenOrder,
  downloadAsset,
  type DownloadAssetReturnType,
  type OceanNode,
  orderAsset,
  type OrderQuote,
  quoteOrder,
  type Signer,
} from "../../mod.ts";
import { type Equals, expectType } from "./_type_checks.ts";

declare const node: OceanNode;
declare const signer: Signer;
const did = "did:op:1";
const serviceId = "0";
const rpcUrl = "http://127.0.0.1:8545";

/** The calls, never run: only type-checked. */
export function orderCalls(): void {
  // What each returns.
  expectType<Equals<ReturnType<typeof orderAsset>, Promise<DatatokenOrder>>>(true);
  expectType<Equals<ReturnType<typeof quoteOrder>, Promise<OrderQuote>>>(true);
  expectType<Equals<ReturnType<typeof downloadAsset>, Promise<DownloadAssetReturnType>>>(true);

  // The one shape: the node, then one parameters object.
  const order: Promise<DatatokenOrder> = orderAsset(node, { did, serviceId, signer, rpcUrl });
  const quote: Promise<OrderQuote> = quoteOrder(node, { did, serviceId, signer, rpcUrl });
  void order, quote;
  void downloadAsset(node, { did, serviceId, signer, rpcUrl, dir: "data", maxPrice: "2" });

  // @ts-expect-error The positional form of before 0.2 is refused.
  void orderAsset(node, did, serviceId, signer, { rpcUrl });
  // @ts-expect-error A quote needs the chain's RPC URL.
  void quoteOrder(node, { did, serviceId, signer });
  // @ts-expect-error An order names its service.
  void orderAsset(node, { did, signer, rpcUrl });
  // @ts-expect-error A download needs the folder to save into.
  void downloadAsset(node, { did, serviceId, signer, rpcUrl });
  // @ts-expect-error A misspelt option is refused by the types too.
  void orderAsset(node, { did, serviceId, signer, rpcUrl, maxPrise: "2" });
}
