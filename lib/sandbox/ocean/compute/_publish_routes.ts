/**
 * The publishing and node-to-node endpoints of the sandbox node (spec
 * section 4, Publishing and Node-to-node): encrypt with a sandbox AES-GCM
 * key, validate a DDO (and sign it when asked), and decrypt for authorized
 * decrypters only. One handler per endpoint.
 *
 * @module
 */

import { keccak256, recoverMessageAddress, stringToBytes } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ComputeContext, json, jsonBody, text } from "./_context.ts";
import { MISMATCH_TEXT } from "./nonce_store.ts";

/** The sandbox node's own key: it signs validated DDOs, and its address may always decrypt. */
export const SANDBOX_NODE_KEY: `0x${string}` = `0x${"5a".repeat(32)}`;
const nodeAccount = privateKeyToAccount(SANDBOX_NODE_KEY);
/** The sandbox node's own address. */
export const SANDBOX_NODE_ADDRESS: string = nodeAccount.address;

/** A fixed AES-256 key: the sandbox is deterministic, and only it can read what it sealed. */
const AES_KEY = crypto.subtle.importKey(
  "raw",
  new TextEncoder().encode("tidepool sandbox node aes key 32"),
  "AES-GCM",
  false,
  ["encrypt", "decrypt"],
);

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** POST /api/services/encrypt: `0x` + hex of IV and ciphertext. */
export async function encryptHandler(
  context: ComputeContext,
  url: URL,
  request: Request,
): Promise<Response> {
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength === 0) return text(400, "Missing required body");
  const check = await context.nonces.verify(Object.fromEntries(url.searchParams), "encrypt");
  if (!check.ok) return text(check.status, check.text);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await AES_KEY, body),
  );
  return text(200, `0x${hex(iv)}${hex(sealed)}`);
}

/** Reads what encrypt sealed; undefined when it is not ours or was altered. */
async function open(sealed: string): Promise<string | undefined> {
  if (!/^0x([0-9a-f]{2}){13,}$/.test(sealed)) return undefined;
  const bytes = new Uint8Array(sealed.slice(2).match(/../g)!.map((b) => parseInt(b, 16)));
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12) },
      await AES_KEY,
      bytes.slice(12),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}

const DID = /^did:op:[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The checks the sandbox makes of a DDO (the required fields of spec section 2). */
function validationErrors(ddo: unknown): string[] {
  if (!ddo || typeof ddo !== "object") return ["ddo must be an object"];
  const d = ddo as Record<string, unknown>;
  const errors: string[] = [];
  if (typeof d.id !== "string" || !DID.test(d.id)) {
    errors.push("id must be a DID (did:op:<64 hex>)");
  }
  if (typeof d.version !== "string") errors.push("version is required");
  if (!Number.isInteger(d.chainId)) errors.push("chainId must be an integer");
  if (typeof d.nftAddress !== "string" || !ADDRESS.test(d.nftAddress)) {
    errors.push("nftAddress must be an address");
  }
  const metadata = d.metadata as Record<string, unknown> | undefined;
  if (!metadata || typeof metadata !== "object") errors.push("metadata is required");
  else {
    if (metadata.type !== "dataset" && metadata.type !== "algorithm") {
      errors.push("metadata.type must be dataset or algorithm");
    }
    if (typeof metadata.name !== "string" || !metadata.name) {
      errors.push("metadata.name is required");
    }
  }
  if (!Array.isArray(d.services) || d.services.length === 0) {
    errors.push("services must list at least one service");
  }
  return errors;
}

/** POST /api/aquarius/assets/ddo/validate */
export async function validateHandler(
  context: ComputeContext,
  _url: URL,
  request: Request,
): Promise<Response> {
  const body = await jsonBody(request);
  if (!body) return text(400, "Validation error: the body is not JSON");
  const errors = validationErrors(body?.ddo);
  if (errors.length) return text(400, `Validation error: ${errors.join("; ")}`);
  if (body.publisherAddress === undefined && body.signature === undefined) {
    return new Response(null, { status: 200 });
  }
  const check = await context.nonces.verify(
    { consumerAddress: body.publisherAddress, nonce: body.nonce, signature: body.signature },
    "validateDDO",
  );
  if (!check.ok) return text(check.status, check.text);
  const hash = keccak256(stringToBytes(JSON.stringify(body.ddo)));
  const signature = await nodeAccount.signMessage({ message: { raw: hash } });
  return json(200, { hash, publicKey: nodeAccount.publicKey, signature });
}

/** POST /api/services/decrypt: only authorized decrypters and the node itself. */
export async function decryptHandler(
  context: ComputeContext,
  _url: URL,
  request: Request,
): Promise<Response> {
  const body = await jsonBody(request);
  if (!body) return text(400, "Invalid request body");
  const decrypter = body.decrypterAddress;
  if (
    typeof decrypter !== "string" || !ADDRESS.test(decrypter) ||
    !Number.isInteger(body.chainId) || typeof body.nonce !== "string" ||
    typeof body.signature !== "string"
  ) {
    return text(400, "decrypterAddress, chainId, nonce and signature are required");
  }
  const allowed = [SANDBOX_NODE_ADDRESS, ...context.decrypters].map((a) => a.toLowerCase());
  if (!allowed.includes(decrypter.toLowerCase())) {
    return text(403, "Decrypt DDO: Decrypter not authorized");
  }
  // The signed message of decrypt is not shown in the spec. ocean-node since
  // 1.0 checks it as every signed request (address + nonce + "decryptDDO",
  // 401); before 1.0 it checked (transactionId || dataNftAddress) +
  // decrypterAddress + chainId + nonce and answered 400. Both with a rising nonce.
  if (!context.pre1DecryptMessage) {
    const check = await context.nonces.verify(
      { consumerAddress: decrypter, nonce: body.nonce, signature: body.signature },
      "decryptDDO",
    );
    if (!check.ok) return text(check.status, check.text);
  } else {
    if (!context.nonces.rises(decrypter, body.nonce)) {
      return text(401, MISMATCH_TEXT);
    }
    const message = `${
      body.transactionId || body.dataNftAddress || ""
    }${decrypter}${body.chainId}${body.nonce}`;
    const hash = keccak256(stringToBytes(message));
    const forms = [hash, { raw: hash }];
    const recovered = await Promise.all(
      forms.map((form) =>
        recoverMessageAddress({ message: form, signature: body.signature as `0x${string}` })
          .catch(() => "")
      ),
    );
    if (!recovered.some((address) => address.toLowerCase() === decrypter.toLowerCase())) {
      return text(400, "Decrypt DDO: invalid signature or does not match");
    }
  }
  context.nonces.set(decrypter, body.nonce);
  const plain = typeof body.encryptedDocument === "string"
    ? await open(body.encryptedDocument)
    : undefined;
  if (plain === undefined) return text(400, "Cannot decrypt the document");
  return text(200, plain);
}
