/**
 * The file-access endpoints of the sandbox node (spec section 4, File
 * access): one handler per endpoint. fileInfo is the node's own handler,
 * over the same files.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { type ComputeContext, json, text } from "./_context.ts";

/** Provider fee token of the sandbox (an OCEAN-like test token). */
const FEE_TOKEN = "0x1B083D8584dd3e6Ff37d04a6e7e82b5F622f3985";
const PROVIDER = "0x4fC6C3D1A5c0E3C22b3d1B0a6c9bA7e52D0C3A11";

/** GET /api/services/initialize */
export async function initializeHandler(context: ComputeContext, url: URL): Promise<Response> {
  const did = url.searchParams.get("documentId");
  const serviceId = url.searchParams.get("serviceId");
  const consumer = url.searchParams.get("consumerAddress");
  if (!did || !serviceId || !consumer) {
    return text(400, "Missing required parameter: documentId, serviceId and consumerAddress");
  }
  const ddo = context.asset(did);
  const service = ddo?.services.find((s) => s.id === serviceId);
  if (!ddo || !service) return text(400, `Cannot resolve service ${serviceId} of ${did}`);
  // As ocean-node's fees handler (src/components/core/handler/feesHandler.ts): 500 in text.
  const refusal = initializeRefusal(ddo.indexedMetadata?.nft, service.type);
  if (refusal) return text(500, refusal);
  const validUntil = Number(url.searchParams.get("validUntil") ?? 0) ||
    Math.floor(Date.now() / 1000) + 86_400;
  // The answer names the consumer's stored nonce, as ocean-node's does.
  const nonce = context.nonces.get(consumer);
  if (context.chain) {
    const answer = await context.chain.initialize({ did, serviceId, consumer, validUntil });
    return json(200, { ...answer as Record<string, unknown>, nonce });
  }
  const digest = createHash("sha256").update(`${did}/${serviceId}/${consumer}/${validUntil}`)
    .digest("hex");
  return json(200, {
    datatoken: service.datatokenAddress,
    nonce,
    computeAddress: consumer,
    providerFee: {
      providerFeeAddress: PROVIDER,
      providerFeeToken: FEE_TOKEN,
      providerFeeAmount: "0",
      providerData: `0x${
        Array.from(
          new TextEncoder().encode(
            JSON.stringify({ environment: "download", timestamp: validUntil }),
          ),
        ).map((b) => b.toString(16).padStart(2, "0")).join("")
      }`,
      v: 28,
      r: `0x${digest}`,
      s: `0x${digest.split("").reverse().join("")}`,
      validUntil,
    },
  });
}

/**
 * Why ocean-node refuses to initialize an order, or undefined. Its check
 * (`isOrderingAllowedForAsset`, src/components/core/handler/downloadHandler.ts)
 * tests `state in [ACTIVE, UNLISTED]` when the asset has an NFT, which reads
 * the array's indexes, so only states 0 and 1 pass: 2 (deprecated), 3
 * (revoked), 4 (ordering disabled), 5 (unlisted) and an NFT without a state
 * are refused; an asset without an NFT passes. A compute service is refused too.
 *
 * Deliberately not shared with the client's pre-check
 * (`lib/ocean/order/_orderable.ts`): the sandbox plays the node, and a rule
 * both sides took from one place would hide its own bug. A test holds the
 * two to the same verdicts (tests/ocean/orderable_rule_test.ts).
 */
export function initializeRefusal(
  nft: { state?: unknown } | undefined,
  type: string,
): string | undefined {
  // `in` turns the state into a property key: "0" and "1" are the array's only indexes.
  if (nft && !["0", "1"].includes(String(nft.state))) {
    return "Nft not present in the asset or the state is different than ACTIVE or UNLISTED.";
  }
  if (type === "compute") return "Use the initializeCompute endpoint to initialize compute jobs";
  return undefined;
}

/** GET /api/services/download */
export async function downloadHandler(context: ComputeContext, url: URL): Promise<Response> {
  const query = Object.fromEntries(url.searchParams);
  for (const field of ["documentId", "serviceId", "transferTxId"]) {
    if (!query[field]) return text(400, `Missing required parameter: ${field}`);
  }
  const check = await context.nonces.verify(query, "download");
  if (!check.ok) return text(check.status, check.text);
  if (context.chain) {
    const verdict = await context.chain.checkOrder({
      txId: query.transferTxId,
      did: query.documentId,
      serviceId: query.serviceId,
      consumer: query.consumerAddress,
    });
    if (!verdict.valid) return text(401, `Failed to validate order: ${verdict.reason}`);
  }
  const order = context.chain
    ? true
    : context.orders.find((o) =>
      o.txId.toLowerCase() === query.transferTxId.toLowerCase() && o.did === query.documentId &&
      o.serviceId === query.serviceId &&
      o.consumer.toLowerCase() === query.consumerAddress.toLowerCase()
    );
  if (!order) {
    return text(
      401,
      `Failed to validate order: transaction ${query.transferTxId} is not an order of this consumer for this service`,
    );
  }
  const files = context.files(query.documentId, query.serviceId);
  const index = Number(query.fileIndex ?? 0);
  if (!Number.isInteger(index) || index < 0 || index >= files.length) {
    return text(400, `Invalid fileIndex ${query.fileIndex}`);
  }
  const file = files[index];
  const content = file.bytes;
  if (context.faults.interruptResultBody) {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(content.subarray(0, Math.max(1, content.byteLength >> 1)));
        setTimeout(() => controller.error(new Error("connection reset")), 20);
      },
    });
    return new Response(stream, { headers: { "content-type": file.contentType } });
  }
  return new Response(content.slice(), {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.name}"`,
    },
  });
}
