/**
 * What the node spec lists for each endpoint: the query parameters of the
 * GET endpoints and the fields of the compute requests' bodies. The node
 * ignores anything else, as ocean-node's routes do (they pick the fields
 * they know), so other clients work; a strict sandbox records what it
 * ignored, and tidepool's tests assert tidepool sent none of it.
 *
 * @module
 */

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

/** A request's query parameters or body fields the spec does not list for its endpoint. */
export interface UnlistedUse {
  /** The request method. */
  method: string;
  /** The request path. */
  path: string;
  /** The names not listed, in the order sent. */
  names: string[];
}

/**
 * The query parameters or body fields of a request the spec does not list
 * for its endpoint, or undefined when the request keeps to the spec.
 */
export async function unlistedInRequest(
  request: Request,
  url: URL,
): Promise<UnlistedUse | undefined> {
  const path = url.pathname;
  const method = request.method;
  let names: string[] = [];
  if (method === "GET" && QUERY[path]) {
    names = [...new Set(url.searchParams.keys())].filter((k) => !QUERY[path].includes(k));
  }
  if (method === "POST" && BODY[path]) {
    const body = await request.clone().json().catch(() => undefined);
    if (body && typeof body === "object" && !Array.isArray(body)) {
      names = Object.keys(body).filter((k) => !BODY[path].includes(k));
    }
  }
  return names.length > 0 ? { method, path, names } : undefined;
}
