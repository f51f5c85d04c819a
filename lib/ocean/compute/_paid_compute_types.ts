/**
 * The contract of a paid compute job: its parameters, its quote, what it
 * returns, and what it asks of a node. `quoteCompute` and `startCompute`
 * share it.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import type { AssetOrderNode } from "../order/_asset_order_types.ts";
import type { DatatokenOrder } from "../order/_order_types.ts";
import type { MaxPrice } from "../order/_max_price.ts";
import type { OrderQuote } from "../order/_quote_types.ts";
import type { Signer } from "../signer.ts";
import type {
  InitializeComputeParameters,
  InitializeComputeReturnType,
  PaidComputeAssetRef,
} from "./initialize_compute.ts";
import type { ComputeJob, ResourceRequest } from "./types.ts";
import type { ComputeEscrowQuote } from "./_escrow_plan.ts";
import type { EscrowSent } from "./_escrow_pay_chain.ts";

/** Parameters of {@linkcode OceanNode.startCompute}. */
export interface StartComputeParameters {
  /** The wallet that orders, pays and signs the start. */
  signer: Signer;
  /** The environment id, `<cluster hash>-<environment hash>`. */
  environment: string;
  /** The algorithm and its compute service (with `transferTxId` to use an order you made). */
  algorithm: PaidComputeAssetRef;
  /** The datasets and their compute services (each may carry its `transferTxId`). */
  datasets: PaidComputeAssetRef[];
  /** The JSON-RPC URL of the chain the orders are made on (the sandbox's `chain.rpcUrl`). */
  rpcUrl: string;
  /** The chain id of the orders and the payment; default the sandbox chain's. */
  chainId?: number;
  /** The token the environment is paid in; default the first it lists for the chain. */
  paymentToken?: string;
  /**
   * The most the whole job may take from the wallet, its orders together
   * (the algorithm's and every dataset's), every part counted: the
   * datatoken's price with the exchange's swap fees, the provider fee and
   * the market fees. An amount (`"5"`) is in the token the chain's exchange
   * prices the datatoken in; a payment in any other token (a provider fee in
   * a token the node picked, any fee of a free datatoken) is refused unless
   * capped by the token's address: `{ "0xOcean…": "5", "0xUSDC…": "0.5" }`.
   * A quote above it is refused before anything is sent, naming each part.
   * Not given: only the datatokens' prices as the chain's exchange lists
   * them are paid, and any fee above zero is refused until a cap allows it.
   * An environment that charges for its resources through the Escrow counts
   * too: the cap holds for the orders and the job's price the node locks
   * together, and without a cap nothing is paid through the escrow.
   */
  maxPrice?: MaxPrice;
  /**
   * The Escrow contract you trust on the chain, for an environment that
   * charges through it: a node naming another in its terms is refused
   * before anything is sent. Default: the Escrow ocean-contracts 2.6.0 lists
   * for the chain (Ethereum, Sepolia, Optimism, Optimism Sepolia, Base,
   * Oasis Sapphire). On any other chain, such as the sandbox's
   * (`sandbox.chain.contracts.escrow`), a charging environment needs it.
   */
  escrowAddress?: string;
  /**
   * The longest the node may lock the job's price, in seconds (its
   * `minLockSeconds`: the job's run, its queue wait and the node's claim
   * time); default 604,800 (7 days). Longer terms are refused before
   * anything is sent: if the node never claims, the price is held that long.
   */
  maxLockSeconds?: number;
  /**
   * Pay for new orders even when still-valid ones exist (as `orderAsset`'s
   * `force`); default false. A `transferTxId` given is still used.
   */
  force?: boolean;
  /**
   * Blocks per `eth_getLogs` request when looking for a still-valid order to
   * reuse; default 10,000. Lower it for an RPC provider that caps ranges
   * tighter (the error of a refused range names the provider's limit).
   */
  logRangeBlocks?: number;
  /** Resources, each within the environment's min and max. */
  resources?: ResourceRequest[];
  /** Longest run in seconds, within the environment's limits. */
  maxJobDuration?: number;
  /** Where the node should store the output (node specific). */
  output?: Record<string, unknown>;
  /** Free-form metadata stored with the job. */
  metadata?: Record<string, unknown>;
  /** Other addresses that may list and download the job. */
  additionalViewers?: string[];
  /**
   * Stops the job's orders and its start: checked before every transaction
   * and before the start is signed. An order whose datatoken is paid for is
   * still completed (`startOrder`), then nothing more is sent; the error
   * lists what was paid and ordered. A stop after an escrow deposit starts
   * no job: the deposit stays free in the escrow (the error says so) and
   * the node's authorization is set back.
   */
  signal?: AbortSignal;
  /**
   * A quote from `quoteCompute` the user looked at: exactly it is executed;
   * one expired, or that the chain no longer matches, is refused.
   */
  quote?: ComputeQuote;
}

/** What {@linkcode OceanNode.startCompute} returns. */
export interface StartComputeReturnType {
  /** The jobs the node started (usually one), as it answered. */
  jobs: ComputeJob[];
  /** The orders the job runs on: new, reused, or the ones you gave. */
  orders: { algorithm: DatatokenOrder; datasets: DatatokenOrder[] };
  /**
   * The escrow part, when the environment charges for its resources: the
   * plan as executed (read again in the wallet's lane) and its transactions
   * (the deposit, the authorization and the authorization set back).
   */
  escrow?: ComputeEscrowQuote & EscrowSent;
}

/**
 * What a paid start asks of a node: ordering its assets, the compute terms
 * and the client that sends the start. An `OceanNode` has them all; naming
 * them here keeps this file below the client that calls it.
 */
export interface ComputeNode extends AssetOrderNode {
  /** The node's HTTP client. */
  readonly http: HttpClient;
  /** The compute terms: prices, fees and valid orders. */
  initializeCompute(parameters: InitializeComputeParameters): Promise<InitializeComputeReturnType>;
}

/** A quote of a paid compute job: its orders, and how the job itself is paid. */
export interface ComputeQuote extends OrderQuote {
  /** The environment the quote is for. */
  readonly environment: string;
  /** The chain and token the environment takes (the start names them). */
  readonly payment: { chainId: number; token: string };
  /**
   * The escrow part, when the environment charges for its resources: the
   * job's price the node will lock, the deposit (the price less the funds
   * already free in the escrow), the authorization the node needs and the
   * one set back after the start. Its rows are in `transactions` and
   * `totals`; the cap holds for it and the orders together.
   */
  readonly escrow?: ComputeEscrowQuote;
}

/** Parameters of {@linkcode OceanNode.quoteCompute}: those of `startCompute` without a quote. */
export type QuoteComputeParameters = Omit<StartComputeParameters, "quote">;
