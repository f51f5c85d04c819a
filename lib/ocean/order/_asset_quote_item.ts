/**
 * What an order of an asset's service is for, read live: the DDO (never
 * from a recording), the service's datatoken and timeout, and the node's
 * signed provider fee. The DDO must be the DID's on the user's chain
 * (`_asset_identity.ts`), and its datatoken the one the node's `initialize`
 * (or `initializeCompute`) answer names, or nothing is paid.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import {
  type AssetOrderNode,
  type QuoteOrderOptions,
  SANDBOX_CHAIN_ID,
} from "./_asset_order_types.ts";
import { assetNft, refuseOtherAsset } from "./_asset_identity.ts";
import { refuseUnorderable } from "./_orderable.ts";
import type { ChainHex, OrderProviderFee } from "./_order_types.ts";
import type { QuoteItem } from "./_quote_reads.ts";

/**
 * The quote item of one service of an asset.
 *
 * @param node The node that serves the asset.
 * @param did The asset.
 * @param serviceId The service.
 * @param buyer The paying wallet's address.
 * @param options The quote options; `datatoken` is the node's answer when the fee came with one.
 * @returns What to plan.
 */
export async function assetQuoteItem(
  node: AssetOrderNode,
  did: string,
  serviceId: string,
  buyer: string,
  options: QuoteOrderOptions & { datatoken?: string },
): Promise<QuoteItem> {
  const { fetchDdo } = await import("../_ddo.ts");
  // Live, whatever the cache mode: a recording (a co-author's, or edited) never decides a payment.
  const ddo = await fetchDdo(node.http, did, true);
  refuseOtherAsset(ddo, did);
  // A DDO form tidepool does not know (a future 5.x without credentialSubject)
  // may hold its services elsewhere: say so rather than fail on undefined.
  const services = Array.isArray(ddo.services) ? ddo.services : [];
  if (services.length === 0) {
    throw new TidepoolError(
      `Cannot order ${did}: its DDO (version ${
        ddo.version ?? "not given"
      }) lists no services where tidepool reads them`,
      {
        hint:
          "node.ddo(did) shows the document as the node sent it; tidepool reads services at the top level or under credentialSubject (DDO 4.x and 5.0)",
      },
    );
  }
  const serviceIndex = services.findIndex((s) => s.id === serviceId);
  const service = services[serviceIndex];
  if (!service) {
    throw new TidepoolError(`Cannot order ${did}: it has no service ${serviceId}`, {
      hint: `Use one of its services: ${services.map((s) => s.id).join(", ")}`,
    });
  }
  const datatoken = service.datatokenAddress;
  if (!datatoken || !/^0x[0-9a-fA-F]{40}$/.test(datatoken)) {
    throw new TidepoolError(`Cannot order ${did}: service ${serviceId} names no datatoken`);
  }
  // Before the node is asked for a fee: the description must be the DID's on this chain.
  const nft = await assetNft(ddo, did, options.chainId ?? SANDBOX_CHAIN_ID);
  let fee = options.providerFee as Partial<OrderProviderFee> | undefined;
  let answered = options.datatoken;
  if (!fee) {
    refuseUnorderable(ddo, did, service);
    const answer = await node.initialize({ did, serviceId, consumer: options.consumer ?? buyer });
    fee = answer.providerFee as Partial<OrderProviderFee> | undefined;
    answered = answer.datatoken;
  }
  if (typeof answered !== "string") {
    throw new TidepoolError(
      `Cannot order ${did}: the node's initialize answer names no datatoken for service ${serviceId}`,
      {
        hint:
          "Nothing was paid. The node must say which datatoken its provider fee is for; check the node's version, or order through another node",
      },
    );
  }
  if (answered.toLowerCase() !== datatoken.toLowerCase()) {
    throw new TidepoolError(
      `Cannot order ${did}: the DDO names datatoken ${datatoken} for service ${serviceId}, the node's initialize answer names ${answered}`,
      {
        hint:
          "Nothing was paid. The asset's description and the node disagree about what is sold; ask the node's operator, or order through another node",
      },
    );
  }
  if (!fee || typeof fee.r !== "string" || typeof fee.providerData !== "string") {
    throw new TidepoolError(`Cannot order ${did}: initialize gave no signed provider fee`, {
      hint: "Check that the node is connected to the chain you order on",
    });
  }
  // The reuse window is the node's word: a negative or fractional one would
  // make every earlier order look expired (or none), and calls started together pay again.
  const timeout = Number(service.timeout ?? 0);
  if (!options.force && !(Number.isSafeInteger(timeout) && timeout >= 0)) {
    throw new TidepoolError(
      `Cannot order ${did}: service ${serviceId} has a malformed timeout (${
        String(service.timeout).slice(0, 40)
      })`,
      {
        hint:
          "Nothing was sent. A service's timeout is whole seconds, 0 for orders that never expire; ask the node's operator, or pass force: true to pay without looking for an earlier order",
      },
    );
  }
  return {
    did,
    serviceId,
    serviceIndex,
    datatoken: datatoken as ChainHex,
    nft,
    consumer: (options.consumer ?? buyer) as ChainHex,
    providerFee: fee as OrderProviderFee,
    reuseWithinSeconds: options.force ? undefined : timeout,
    logRangeBlocks: options.logRangeBlocks,
  };
}
