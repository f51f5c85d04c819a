/**
 * The contract of ordering an asset's service: what it asks of a node, and
 * its options. `orderAsset` and `quoteOrder` share it.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import type { Ddo } from "../ddo.ts";
import type {
  InitializeParameters,
  InitializeReturnType,
  ProviderFee,
} from "../download/initialize.ts";
import type { Signer } from "../signer.ts";
import type { MaxPrice } from "./_max_price.ts";
import type { OrderQuote } from "./_quote_types.ts";

/**
 * What ordering an asset asks of a node: its DDO (read live, through its
 * HTTP client) and a provider fee. An `OceanNode` has them; naming them
 * here keeps the order code below the client that calls it.
 */
export interface AssetOrderNode {
  /** The node's HTTP client: a payment reads the DDO through it live, never from a recording. */
  readonly http: HttpClient;
  /** The asset's DDO. */
  ddo(did: string): Promise<Ddo>;
  /** The provider fee of one service for one consumer. */
  initialize(parameters: InitializeParameters): Promise<InitializeReturnType>;
}

/** The local sandbox chain (anvil's default id); what `chainId` defaults to. */
export const SANDBOX_CHAIN_ID = 31337;

/** Options of `quoteOrder`. */
export interface QuoteOrderOptions {
  /** The chain's JSON-RPC URL, e.g. the sandbox's anvil (`chain.rpcUrl`). */
  rpcUrl: string;
  /** The chain id; default {@linkcode SANDBOX_CHAIN_ID}. */
  chainId?: number;
  /**
   * The most the order may take from the wallet, every part counted: the
   * datatoken's price with the exchange's swap fees, the provider fee and
   * the market fees. An amount (`"5"`) is in the token the chain's exchange
   * prices the datatoken in; a payment in any other token (a provider fee in
   * a token the node picked, any fee of a free datatoken) is refused unless
   * capped by the token's address: `{ "0xOcean…": "5", "0xUSDC…": "0.5" }`.
   * A quote above it is refused before anything is sent, naming each part.
   * Not given: only the datatoken's price as the chain's exchange lists it
   * is paid, and any fee above zero (provider, market) is refused until a
   * cap allows it, also when executing a `quote`.
   */
  maxPrice?: MaxPrice;
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

/** Options of `orderAsset`. */
export interface OrderAssetOptions extends QuoteOrderOptions {
  /**
   * A quote from `quoteOrder` the user looked at: exactly it is executed.
   * One that has expired (its provider fee), or that the chain no longer
   * matches, is refused before anything is sent.
   */
  quote?: OrderQuote;
  /**
   * Stops the order: checked before every transaction. Once the datatoken
   * is paid for, its `startOrder` still follows, then nothing more is sent;
   * the error lists what was paid and ordered.
   */
  signal?: AbortSignal;
}

/** What an order is of and who pays: the asset, its service and the buyer. */
export interface AssetOrderTarget {
  /** The asset's DID. */
  did: string;
  /** The service to order (any service, not only the first). */
  serviceId: string;
  /** The buyer: a signer from `signerFromPrivateKey` or `signerFromEnv`. */
  signer: Signer;
}

/** Parameters of `quoteOrder`: the order's target and its options. */
export interface QuoteOrderParameters extends AssetOrderTarget, QuoteOrderOptions {}

/** Parameters of `orderAsset`: the order's target and its options. */
export interface OrderAssetParameters extends AssetOrderTarget, OrderAssetOptions {}
