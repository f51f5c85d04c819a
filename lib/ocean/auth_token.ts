/**
 * The bearer-token alternative to a signature (spec section 5): POST
 * /api/services/auth/token, signed once, answers a token that stands in for
 * `consumerAddress`, `nonce` and `signature` on later requests.
 *
 * @module
 */

import type { HttpClient } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { registerSecret } from "../errors/redact.ts";
import { checksummedSigner } from "./_address.ts";
import { signedCall } from "./_signed_call.ts";
import type { Hex, Signer } from "./signer.ts";

/** Parameters of {@linkcode OceanNode.createAuthToken}. */
export interface CreateAuthTokenParameters {
  /** The wallet the token stands for; it signs the request once. */
  signer: Signer;
  /** When the token expires, a `Date` or Unix time in milliseconds; default the node's choice. */
  validUntil?: Date | number;
  /** The chain the token is for, when the node asks (the spec does not say). */
  chainId?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/**
 * A node's bearer token for one wallet. It prints, inspects and serialises
 * as its address only; the token itself is registered as a secret, so no
 * error, log or cache file shows it, and it is sent only in the
 * `Authorization` header of requests to the node that issued it.
 */
export class AuthToken {
  /** The wallet the token stands for (checksummed). */
  readonly address: Hex;
  /** The node that issued it. */
  readonly node: string;
  /** When it expires, when the caller asked for a limit. */
  readonly validUntil?: Date;
  readonly #token: string;

  /**
   * Wraps a token the node issued.
   *
   * @param token The token text.
   * @param issued `address`, the wallet it stands for; `node`, the base URL
   *   of the node that issued it; `validUntil`, when it expires.
   */
  constructor(
    token: string,
    { address, node, validUntil }: { address: Hex; node: string; validUntil?: Date },
  ) {
    registerSecret(token);
    this.#token = token;
    this.address = address;
    this.node = node;
    this.validUntil = validUntil;
    Object.freeze(this);
  }

  /**
   * The `Authorization` header value, for requests to the issuing node only.
   *
   * @param node The base URL the request goes to.
   * @returns `Bearer <token>`.
   */
  header(node: string): string {
    if (node !== this.node) {
      throw new TidepoolError(
        `Cannot send the auth token of ${this.node} to another node: ${node}`,
        { hint: "A token is good only at the node that issued it; create one there" },
      );
    }
    return `Bearer ${this.#token}`;
  }

  /** The address only. @returns `{ address, node }`. */
  toJSON(): { address: Hex; node: string } {
    return { address: this.address, node: this.node };
  }

  /** The address only. @returns `AuthToken(<address>)`. */
  toString(): string {
    return `AuthToken(${this.address})`;
  }

  /** The address and node only, for `Deno.inspect` and the notebook. @returns The text shown. */
  [Symbol.for("Deno.customInspect")](): string {
    return `AuthToken { address: "${this.address}", node: "${this.node}" }`;
  }
}

/** The token in the node's answer: `{token}` (ocean-node), `{jwt}` or a bare string (the shape is not shown). */
function tokenOf(body: unknown): string | undefined {
  if (typeof body === "string" && body.trim() !== "") return body.trim();
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    const value = record.token ?? record.jwt ?? record.access_token;
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** The body of {@linkcode OceanNode.createAuthToken}, on the node's HTTP client; documented there. */
export async function createAuthToken(
  http: HttpClient,
  parameters: CreateAuthTokenParameters,
): Promise<AuthToken> {
  const signer = checksummedSigner(parameters.signer);
  const validUntil = parameters.validUntil === undefined
    ? undefined
    : new Date(parameters.validUntil);
  if (validUntil && (Number.isNaN(validUntil.getTime()) || validUntil.getTime() <= Date.now())) {
    throw new TidepoolError(`Invalid validUntil: ${String(parameters.validUntil)}`, {
      hint: "Give a time in the future, as a Date or Unix milliseconds",
    });
  }
  const response = await signedCall(
    {
      http,
      signer,
      command: "createAuthToken",
      action: "create an auth token",
      signal: parameters.signal,
    },
    (fields) =>
      http.request({
        method: "POST",
        path: "/api/services/auth/token",
        json: {
          address: fields.consumerAddress,
          nonce: fields.nonce,
          signature: fields.signature,
          validUntil: validUntil?.getTime(),
          chainId: parameters.chainId,
        },
        idempotent: false,
        sensitive: true,
        signal: parameters.signal,
      }),
  );
  let body: unknown;
  try {
    body = response.json<unknown>();
  } catch {
    body = response.text();
  }
  const token = tokenOf(body);
  if (!token) {
    throw new ProtocolError("The node answered the token request without a token", {
      details: body && typeof body === "object" ? `fields: ${Object.keys(body).join(", ")}` : "",
      hint: "Check that the node offers POST /api/services/auth/token; sign each request instead",
    });
  }
  return new AuthToken(token, { address: signer.address, node: http.baseUrl, validUntil });
}
