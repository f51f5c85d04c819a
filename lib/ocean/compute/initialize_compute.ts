import type { HttpClient } from "../../http/client.ts";
import { ProtocolError } from "../../errors/errors.ts";
import { consumerAddress } from "../_address.ts";
import type { ProviderFee } from "../download/initialize.ts";
import type { Signer } from "../signer.ts";
import type { ComputeAssetRef, ResourceRequest } from "./types.ts";

/** A dataset or algorithm of a paid job, with the order that pays for it when one exists. */
export interface PaidComputeAssetRef extends ComputeAssetRef {
  /** The `startOrder` transaction of this asset's service, when already ordered. */
  transferTxId?: string;
}

/** The chain and token a paid job is paid on (the spec's `payment`). */
export interface ComputePayment {
  /** The chain id of the orders. */
  chainId: number;
  /** The token the environment charges in (one of its `fees[chainId][i].feeToken`). */
  token: string;
}

/** Parameters of {@linkcode OceanNode.initializeCompute}. */
export interface InitializeComputeParameters {
  /** The consumer (address or signer); sent checksummed. */
  consumer: string | Signer;
  /** The environment id, `<cluster hash>-<environment hash>`. */
  environment: string;
  /** The algorithm and its compute service. */
  algorithm: PaidComputeAssetRef;
  /** The datasets and their compute services. */
  datasets: PaidComputeAssetRef[];
  /** Chain and token of the payment (required by the node even for free assets). */
  payment: ComputePayment;
  /** Longest run in seconds. */
  maxJobDuration?: number;
  /** Resources wanted. */
  resources?: ResourceRequest[];
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** What the node says about one asset of the job (ocean-node's field names; kept as received). */
export interface ComputeAssetTerms {
  /** The asset's DID. */
  did?: string;
  /** Its service id. */
  serviceId?: string;
  /** The datatoken to order. */
  datatoken?: string;
  /** The chain of the datatoken. */
  chainId?: number;
  /** The address orders must be made for: the environment's consumer address. */
  consumerAddress?: string;
  /** The given `transferTxId` when the node found it still valid, else false. */
  validOrder?: string | false;
  /** A fresh provider fee to order with, when the order is not valid. */
  providerFee?: ProviderFee;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** What the node charges for the resources, beyond the orders (ocean-node's `payment`). */
export interface ComputePaymentTerms {
  /** Chain of the payment. */
  chainId?: number;
  /** Token of the payment. */
  token?: string;
  /** Amount for the resources, in base units of the token (decimal string). */
  amount?: string;
  /** Who receives it. */
  payee?: string;
  /** The escrow contract the amount is locked in, when the node uses one. */
  escrowAddress?: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** What `POST /api/services/initializeCompute` answers. */
export interface InitializeComputeReturnType {
  /** Terms of the algorithm. */
  algorithm: ComputeAssetTerms | null;
  /** Terms of each dataset, in request order. */
  datasets: ComputeAssetTerms[];
  /** The resources' price, when the node gives one. */
  payment?: ComputePaymentTerms;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** The body of {@linkcode OceanNode.initializeCompute}, on the node's HTTP client; documented there. */
export async function initializeCompute(
  http: HttpClient,
  parameters: InitializeComputeParameters,
): Promise<InitializeComputeReturnType> {
  const response = await http.request({
    method: "POST",
    path: "/api/services/initializeCompute",
    json: {
      consumerAddress: consumerAddress(parameters.consumer),
      environment: parameters.environment,
      algorithm: parameters.algorithm,
      datasets: parameters.datasets,
      payment: parameters.payment,
      maxJobDuration: parameters.maxJobDuration,
      resources: parameters.resources,
    },
    // Nothing starts: asking twice gives fresh fees, so a retry is harmless; never cached.
    idempotent: true,
    cacheable: false,
    signal: parameters.signal,
  });
  const body = response.json<unknown>();
  const terms = body as Partial<InitializeComputeReturnType> | null;
  if (!terms || typeof terms !== "object" || !Array.isArray(terms.datasets)) {
    throw new ProtocolError(
      "Unexpected initializeCompute answer: expected { algorithm, datasets }",
      {
        details: response.text(),
        hint: "Check that the node offers paid compute (computeEnvironments lists fees)",
      },
    );
  }
  return { ...terms, algorithm: terms.algorithm ?? null, datasets: terms.datasets };
}
