/**
 * A signed call to the node: a fresh nonce above the stored one, the
 * signature, and the one retry spec section 5 allows for, all inside the
 * wallet's signing lane so parallel calls reach the node in nonce order. On a 401
 * `consumer address and nonce signature mismatch` the stored nonce is read
 * again and that one request is signed and sent once more; any other refusal
 * becomes an `AuthError` that says whether the key, the address or the
 * allowlist is at fault.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import {
  AuthError,
  BotChallengeError,
  HttpError,
  httpErrorFields,
  ProtocolError,
} from "../errors/errors.ts";
import { nextNonce } from "./_nonces.ts";
import { type SignedCommand, type SignedFields, signRequest } from "./sign_request.ts";
import type { Signer } from "./signer.ts";
import { nodeHashBytes } from "./_node_hash_bytes.ts";
import { inSigningLane } from "./_signing_lane.ts";

const MISMATCH = /nonce signature mismatch/i;

/** Addresses whose stored nonce this client has read (then the process keeps nonces rising). */
const nonceRead = new WeakMap<HttpClient, Map<string, string>>();

/** Reads the node's stored nonce for an address (`GET /api/services/nonce`). */
export async function storedNonce(
  http: HttpClient,
  address: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const response = await http.request({
    path: "/api/services/nonce",
    query: { userAddress: address },
    cacheable: false,
    signal,
  });
  let nonce: unknown;
  try {
    nonce = response.json<{ nonce?: unknown }>()?.nonce;
  } catch {
    nonce = response.text().trim();
  }
  if (nonce === null || nonce === undefined || nonce === "") return undefined;
  const text = String(nonce);
  if (!/^[0-9]+$/.test(text)) {
    throw new ProtocolError(`Unexpected stored nonce for ${address}: not a digit string`, {
      details: text,
      hint: "Check that the URL is an Ocean node",
    });
  }
  return text;
}

/** What a signed call needs besides the request itself. */
export interface SignedCallContext {
  /** The node's client. */
  http: HttpClient;
  /** The signer, with its address in checksummed form. */
  signer: Signer;
  /** The command signed (spec section 5). */
  command: SignedCommand;
  /** What the call does, for messages: `start a free compute job`. */
  action: string;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * Signs and sends one request, retrying it once after a nonce mismatch (a
 * nonce raised by another client). Calls of one wallet at one node go one at
 * a time, in the order they were made; `send` should resolve once the node
 * has answered (a streamed body can be read after this returns).
 *
 * @param context The client, the signer, the command and the action.
 * @param send Sends the request with the signed fields.
 * @returns What `send` returned.
 */
export function signedCall<T>(
  context: SignedCallContext,
  send: (fields: SignedFields) => Promise<T>,
): Promise<T> {
  const { http, signer, signal } = context;
  return inSigningLane(http.baseUrl, signer.address, () => signAndSend(context, send), signal);
}

/** The body of a signed call, run inside the lane. */
async function signAndSend<T>(
  context: SignedCallContext,
  send: (fields: SignedFields) => Promise<T>,
): Promise<T> {
  const { http, signer, command, signal } = context;
  const address = signer.address;
  let known = nonceRead.get(http);
  if (!known) nonceRead.set(http, known = new Map());
  for (let attempt = 1;; attempt++) {
    let stored = known.get(address.toLowerCase());
    if (stored === undefined || attempt > 1) {
      stored = (await storedNonce(http, address, signal)) ?? "0";
      known.set(address.toLowerCase(), stored);
    }
    const nonce = nextNonce(address, stored);
    const fields = await signRequest(signer, command, { nonce });
    try {
      return await send(fields);
    } catch (error) {
      // A bot challenge is not a verdict on the signature: it passes as it is.
      if (!(error instanceof HttpError) || error instanceof BotChallengeError) throw error;
      if (error.status === 401 && MISMATCH.test(error.body) && attempt === 1) continue;
      if (error.status === 401 || (error.status === 403 && command !== "download")) {
        throw await explainRefusal(context, error, fields, attempt);
      }
      throw error;
    }
  }
}

/** Turns a 401 or 403 into an AuthError that names the likely culprit. */
async function explainRefusal(
  context: SignedCallContext,
  error: HttpError,
  fields: SignedFields,
  attempt: number,
): Promise<AuthError> {
  const { signer, action } = context;
  const said = error.serverMessage ?? error.body;
  const base = httpErrorFields(error);
  if (error.status === 403) {
    return new AuthError(
      `Cannot ${action}: the node refused ${signer.address}: ${said || "403 Forbidden"}`,
      {
        ...base,
        hint:
          `The signature was accepted, so the key matches the address; the address is not on the allowlist ` +
          `(free.access of the environment, or its access lists). Ask the node operator to add ${signer.address}`,
      },
    );
  }
  if (MISMATCH.test(error.body)) {
    const keyMatches = await signatureMatches(signer.address, fields, context.command);
    const hint = keyMatches === false
      ? `The key is wrong: the signer's signatures do not recover to its address ${signer.address}. ` +
        "Use the key of that wallet, or a signer whose address is the key's"
      : `The key matches ${signer.address}, so the node rejected the address or the nonce: ` +
        `it was read again and the request re-signed ${
          attempt > 1 ? "once, with the same answer" : ""
        }. ` +
        "Another client may be raising the stored nonce at the same time; wait and try again";
    return new AuthError(`Cannot ${action}: ${said}`, { ...base, hint });
  }
  return new AuthError(`Cannot ${action}: the node did not accept the credentials: ${said}`, {
    ...base,
    hint: `The request carried consumerAddress ${signer.address}, a nonce and a signature; ` +
      "check that the node expects signed requests on this path and that the address is the signer's",
  });
}

/** Whether the signature recovers to the address (undefined when it cannot be checked). */
async function signatureMatches(
  address: string,
  fields: SignedFields,
  command: SignedCommand,
): Promise<boolean | undefined> {
  try {
    const { recoverMessageAddress } = await import("viem");
    const hash = nodeHashBytes(`${address}${fields.nonce}${command}`);
    const recovered = await recoverMessageAddress({
      message: { raw: hash },
      signature: fields.signature,
    });
    return recovered.toLowerCase() === address.toLowerCase();
  } catch {
    return undefined;
  }
}
