import type { HttpClient } from "../../http/client.ts";
import { HttpError, ProtocolError } from "../../errors/errors.ts";
import { serverMessage } from "../../http/error_from_response.ts";
import { checksumAddress } from "../_address.ts";

/** The provider fee of an initialize answer; fields beyond these are kept as received. */
export interface ProviderFee {
  /** Address the fee goes to. */
  providerFeeAddress?: string;
  /** Token of the fee. */
  providerFeeToken?: string;
  /** Amount, as a string of base units. */
  providerFeeAmount?: string;
  /** Until when the fee is valid (Unix seconds). */
  validUntil?: number;
  /** Node signature parts. */
  v?: number;
  /** Node signature parts. */
  r?: string;
  /** Node signature parts. */
  s?: string;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** What `GET /api/services/initialize` answers (exact names not in the spec; kept as received). */
export interface InitializeReturnType {
  /** The datatoken to order. */
  datatoken?: string;
  /** The provider fee to pay with the order. */
  providerFee?: ProviderFee;
  /** Any other field the node sends, kept as it came. */
  [key: string]: unknown;
}

/** Parameters of {@linkcode OceanNode.initialize}. */
export interface InitializeParameters {
  /** The asset's DID. */
  did: string;
  /** The service id. */
  serviceId: string;
  /** The consumer address (sent checksummed). */
  consumer: string;
  /** Unix time the provider fee should stay valid until. */
  validUntil?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.initialize}, on the node's HTTP client; documented there. */
export async function initialize(
  http: HttpClient,
  parameters: InitializeParameters,
): Promise<InitializeReturnType> {
  const response = await http.request({
    path: "/api/services/initialize",
    query: {
      documentId: parameters.did,
      serviceId: parameters.serviceId,
      consumerAddress: checksumAddress(parameters.consumer, "consumer address"),
      validUntil: parameters.validUntil,
    },
    cacheable: false,
    // ocean-node answers a refusal (a compute service, an NFT state other
    // than 0 or 1) with a plain-text 500 that no retry changes.
    acceptStatus: [500],
    signal: parameters.signal,
  });
  if (response.status === 500) {
    const text = response.text().trim();
    throw new HttpError(
      `The node refused to initialize an order of ${parameters.did} service ${parameters.serviceId}: ${
        (serverMessage(text) ?? text).slice(0, 300) || "500 with an empty body"
      }`,
      {
        status: 500,
        method: "GET",
        url: response.url,
        body: response.text(),
        serverMessage: serverMessage(text),
        hint:
          "Not retried: the node answers this asset the same way. A compute service is run with quoteCompute / startCompute; an asset whose NFT state is not 0 or 1 cannot be ordered",
      },
    );
  }
  const body = response.json<unknown>();
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new ProtocolError("Unexpected initialize answer: expected an object", {
      details: response.text(),
      hint: "Check the DID and the service id",
    });
  }
  return body as InitializeReturnType;
}
