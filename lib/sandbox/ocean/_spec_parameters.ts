/**
 * What the node spec lists for each endpoint: the query parameters of the
 * GET endpoints and the fields of the compute requests' bodies. A strict sandbox
 * node answers anything else with the spec's error shape (400, plain text).
 *
 * @module
 */

import { text } from "./_state.ts";

/** Query parameters of each GET endpoint, as listed in spec section 4. */
const QUERY: Record<string, readonly string[]> = {
  "/": [],
  "/api/services/nonce": ["userAddress"],
  "/api/aquarius/state/ddo": ["did", "nft", "txId"],
  "/api/services/computeEnvironments": ["chainId"],
  // `includeMetrics=true` asks for a signature, carried as every signed GET carries it (section 5).
  "/api/services/compute": [
    "consumerAddress",
    "jobId",
    "agreementId",
    "includeMetrics",
    "nonce",
    "signature",
  ],
  "/api/services/computeResult": ["consumerAddress", "jobId", "index", "nonce", "signature"],
  "/api/services/initialize": [
    "documentId",
    "serviceId",
    "consumerAddress",
    "validUntil",
    "fileIndex",
    "userdata",
  ],
  "/api/services/download": [
    "documentId",
    "serviceId",
    "transferTxId",
    "consumerAddress",
    "nonce",
    "signature",
    "fileIndex",
    "userdata",
  ],
};

/** FreeComputeRequest: required and optional fields (section 2). */
const FREE_COMPUTE = [
  "consumerAddress",
  "nonce",
  "signature",
  "environment",
  "algorithm",
  "datasets",
  "resources",
  "maxJobDuration",
  "output",
  "metadata",
  "additionalViewers",
];

/** The paid start: a free request plus the required `payment` (section 4). */
const PAID_COMPUTE = [...FREE_COMPUTE, "payment"];

/** initializeCompute's body fields (section 4). */
const INITIALIZE_COMPUTE = [
  "algorithm",
  "environment",
  "payment",
  "datasets",
  "consumerAddress",
  "maxJobDuration",
  "resources",
];

/** Node-to-node decrypt: required and optional fields (section 4). */
const DECRYPT = [
  "decrypterAddress",
  "chainId",
  "nonce",
  "signature",
  "transactionId",
  "dataNftAddress",
  "encryptedDocument",
  "flags",
  "documentHash",
];

/** The token request: not shown in the spec; ocean-node's fields. */
const AUTH_TOKEN = ["address", "nonce", "signature", "validUntil", "chainId"];

/** The listed body fields of each POST endpoint the strict node checks. */
const BODY: Record<string, readonly string[]> = {
  "/api/services/decrypt": DECRYPT,
  "/api/services/auth/token": AUTH_TOKEN,
  "/api/services/freeCompute": FREE_COMPUTE,
  "/api/services/compute": PAID_COMPUTE,
  "/api/services/initializeCompute": INITIALIZE_COMPUTE,
};

/**
 * The 400 for a query parameter or free compute field the spec does not
 * list, or undefined when the request keeps to the spec.
 */
export async function unlistedInRequest(request: Request, url: URL): Promise<Response | undefined> {
  const path = url.pathname;
  if (request.method === "GET" && QUERY[path]) {
    const unknown = [...new Set(url.searchParams.keys())].filter((k) => !QUERY[path].includes(k));
    if (unknown.length > 0) return text(`Unknown parameter: ${unknown.join(", ")}`, 400);
  }
  if (request.method === "POST" && BODY[path]) {
    const body = await request.clone().json().catch(() => undefined);
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const unknown = Object.keys(body).filter((k) => !BODY[path].includes(k));
      if (unknown.length > 0) return text(`Unknown field: ${unknown.join(", ")}`, 400);
    }
  }
  return undefined;
}
