/**
 * Orders an asset's service on chain with the signer's viem account.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { Ddo } from "../ddo.ts";
import type { Signer } from "../signer.ts";
import type {
  InitializeParameters,
  InitializeReturnType,
  ProviderFee,
} from "../download/initialize.ts";
import {
  type DatatokenOrder,
  type OrderAccount,
  type OrderProviderFee,
  type PreparedOrder,
  prepareOrder,
} from "./order_datatoken.ts";

/**
 * What ordering an asset asks of a node: its DDO and a provider fee. An
 * `OceanNode` has both; naming the two methods here keeps this file below
 * the client that calls it.
 */
export interface AssetOrderNode {
  /** The asset's DDO. */
  ddo(did: string): Promise<Ddo>;
  /** The provider fee of one service for one consumer. */
  initialize(parameters: InitializeParameters): Promise<InitializeReturnType>;
}

/** The local sandbox chain (anvil's default id); what `chainId` defaults to. */
export const SANDBOX_CHAIN_ID = 31337;

/** Options of {@linkcode orderAsset}. */
export interface OrderAssetOptions {
  /** The chain's JSON-RPC URL, e.g. the sandbox's anvil (`chain.rpcUrl`). */
  rpcUrl: string;
  /** The chain id; default {@linkcode SANDBOX_CHAIN_ID}. */
  chainId?: number;
  /** The most to pay for the datatoken, in base-token units (`"5"`). */
  maxPrice?: string;
  /** Pay again even when a still-valid order exists; default false. */
  force?: boolean;
  /**
   * Blocks per `eth_getLogs` request when looking for a still-valid order to
   * reuse; default 10,000. Lower it for an RPC provider that caps ranges
   * tighter (the error of a refused range names the provider's limit).
   */
  logRangeBlocks?: number;
  /**
   * The address the order is for; default the signer. A compute order names
   * the environment's `consumerAddress`, as `initializeCompute` gives it.
   */
  consumer?: string;
  /** A provider fee already signed (by `initializeCompute`); default: asked from `initialize`. */
  providerFee?: ProviderFee;
}

/**
 * Orders one service of an asset on chain: reads its datatoken and timeout
 * from the DDO, asks the node's `initialize` for the signed provider fee,
 * and reuses a still-valid order of the signer or buys (or dispenses) one
 * datatoken and calls `startOrder`. Balance, allowance, price, `maxPrice`
 * and the fee's expiry are checked before anything is sent.
 *
 * @param node The Ocean node that serves the asset.
 * @param did The asset's DID.
 * @param serviceId The service to order (any service, not only the first).
 * @param signer The buyer: a signer from `signerFromPrivateKey` or `signerFromEnv`.
 * @param options Chain RPC URL, id and `maxPrice`.
 * @returns The order: transaction hash, block and price paid.
 * @example Order the first service of an asset on the sandbox chain
 * ```ts ignore
 * const order = await orderAsset(node, did, ddo.services[0].id, signer, { rpcUrl: chain.rpcUrl });
 * const file = await node.download({ did, serviceId, txId: order.txHash, signer, dir: "data" });
 * ```
 */
export async function orderAsset(
  node: AssetOrderNode,
  did: string,
  serviceId: string,
  signer: Signer,
  options: OrderAssetOptions,
): Promise<DatatokenOrder> {
  checkCall("orderAsset", options);
  return await (await prepareAssetOrder(node, did, serviceId, signer, options)).send();
}

/**
 * Everything {@linkcode orderAsset} does before sending: the DDO, the
 * provider fee, an earlier still-valid order, and the checks of price,
 * `maxPrice` and balance. `send()` of the result places the order.
 */
export async function prepareAssetOrder(
  node: AssetOrderNode,
  did: string,
  serviceId: string,
  signer: Signer,
  options: OrderAssetOptions,
): Promise<PreparedOrder> {
  const account = await accountOf(signer);
  const ddo = await node.ddo(did);
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
  if (!service.datatokenAddress) {
    throw new TidepoolError(`Cannot order ${did}: service ${serviceId} names no datatoken`);
  }
  const fee = (options.providerFee ??
    (await node.initialize({ did, serviceId, consumer: options.consumer ?? signer.address }))
      .providerFee) as Partial<OrderProviderFee> | undefined;
  if (!fee || typeof fee.r !== "string" || typeof fee.providerData !== "string") {
    throw new TidepoolError(`Cannot order ${did}: initialize gave no signed provider fee`, {
      hint: "Check that the node is connected to the chain you order on",
    });
  }
  return await prepareOrder({
    rpcUrl: options.rpcUrl,
    chainId: options.chainId ?? SANDBOX_CHAIN_ID,
    account,
    consumer: options.consumer,
    datatoken: service.datatokenAddress,
    serviceIndex,
    providerFee: fee as OrderProviderFee,
    maxPrice: options.maxPrice,
    reuseWithinSeconds: options.force ? undefined : Number(service.timeout ?? 0),
    logRangeBlocks: options.logRangeBlocks,
  });
}

/** The account a signer sends transactions with; the key stays inside the signer. */
async function accountOf(signer: Signer): Promise<OrderAccount> {
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
