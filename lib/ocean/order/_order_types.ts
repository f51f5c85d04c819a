/**
 * The contract of an order, apart from the code that places it: the
 * parameters, the prepared order and the order on chain. The viem-backed
 * transactions and the light facade both use these types.
 *
 * @module
 */

import type { MaxPrice } from "./_max_price.ts";

/** A 0x address or hash. */
export type ChainHex = `0x${string}`;

/** The provider fee from `initialize`, as `startOrder` takes it. */
export interface OrderProviderFee {
  /** Address the fee goes to. */
  providerFeeAddress: string;
  /** Token of the fee. */
  providerFeeToken: string;
  /** Amount in base units, decimal string. */
  providerFeeAmount: string;
  /** Hex provider data the node signed. */
  providerData: string;
  /** Unix seconds; 0 means no limit. */
  validUntil: number;
  /** Signature part. */
  v: number;
  /** Signature part. */
  r: string;
  /** Signature part. */
  s: string;
}

/**
 * An account that signs its own transactions: the part of a viem local
 * account (`privateKeyToAccount(key)`) ordering uses. tidepool's signers
 * hold one; its key never leaves it.
 */
export interface OrderAccount {
  /** The account's address; it pays and signs. */
  readonly address: ChainHex;
  /** Always `local`: the account signs itself, no wallet RPC. */
  readonly type: "local";
  /** Signs a transaction (viem calls it with its own transaction type). */
  signTransaction(transaction: never, options?: never): Promise<ChainHex>;
}

/** Parameters of {@linkcode orderDatatoken}. */
export interface OrderDatatokenParameters {
  /** The JSON-RPC URL of the chain (the sandbox's anvil by default in the sandbox). */
  rpcUrl: string;
  /** The chain id; default 31337 (anvil). */
  chainId?: number;
  /** The buyer's account; it signs the transactions locally (viem's `privateKeyToAccount(key)` is one). */
  account: OrderAccount;
  /** The datatoken of the service. */
  datatoken: string;
  /** The index of the service in the DDO. */
  serviceIndex: number;
  /**
   * The address the order is for; default the buyer. A compute order names
   * the environment's `consumerAddress` (what the node checks), paid by the buyer.
   */
  consumer?: string;
  /** The signed provider fee from `initialize`. */
  providerFee: OrderProviderFee;
  /**
   * The service's timeout in seconds (0: orders never expire). When given, a
   * still-valid earlier order of this buyer for this service is returned
   * instead of paying twice.
   */
  reuseWithinSeconds?: number;
  /**
   * Blocks per `eth_getLogs` request when looking for a still-valid order to
   * reuse; default 10,000. Lower it for an RPC provider that caps ranges
   * tighter (the error of a refused range names the provider's limit).
   */
  logRangeBlocks?: number;
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
   * cap allows it.
   */
  maxPrice?: MaxPrice;
  /**
   * Stops the order: checked before every transaction. Once the datatoken is
   * paid for, its `startOrder` still follows (nothing is paid without its
   * order), then nothing more is sent.
   */
  signal?: AbortSignal;
}

/** An order on chain. */
export interface DatatokenOrder {
  /** The `startOrder` transaction hash: what the node's download and compute take as `transferTxId`. */
  txHash: ChainHex;
  /** Its block. */
  blockNumber: bigint;
  /** Paid for the datatoken, in base-token units as a decimal string; `"0"` when free or already held. */
  pricePaid: string;
  /** How the datatoken was obtained. */
  source: "dispenser" | "exchange" | "held" | "reused";
  /**
   * What left the wallet, per part, read from the receipts of the order's
   * transactions (empty when reused).
   */
  paid: PaidPart[];
  /** The order's transactions, in the order they were sent (empty when reused). */
  transactions: { action: string; txHash: ChainHex }[];
}

/** What a payment is for. */
export type PaymentPart =
  | "price"
  | "provider fee"
  | "publish market fee"
  | "consume market fee"
  | "datatoken"
  | "unquoted";

/** What one order paid, per part, read from its receipts. */
export interface PaidPart {
  /**
   * What it paid: the datatoken's price with the exchange's swap fees, a
   * fee, the datatoken itself, or `unquoted`: a transfer the quote did not name.
   */
  part: PaymentPart;
  /** The token. */
  token: ChainHex;
  /** The amount in whole tokens, as a decimal string (`"1.001"`). */
  amount: string;
  /** The amount in the token's base units. */
  units: bigint;
  /** Who received it, as the quote named them. */
  payee: ChainHex;
  /** The transaction that paid it. */
  txHash: ChainHex;
}
