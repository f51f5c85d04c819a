/**
 * The sandbox node's bearer tokens (spec section 5: a token in the
 * `Authorization` header may replace the signature). Issued by
 * POST /api/services/auth/token to a signed request; each stands for one
 * address until it expires. Each is a JWT signed with HS256 over
 * `{address, nonce, createdAt, iat}`, as ocean-node's (src/components/Auth/index.ts).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";

function base64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

/**
 * Tokens issued by the sandbox node, by token text.
 *
 * @example Issue and read back
 * ```ts
 * const tokens = new AuthTokens();
 * const token = tokens.issue("0x0000000000000000000000000000000000000001");
 * console.log(tokens.ownerOf(`Bearer ${token}`)); // 0x0000000000000000000000000000000000000001
 * ```
 */
export class AuthTokens {
  readonly #issued = new Map<string, { address: string; validUntil?: number }>();
  readonly #secret = crypto.getRandomValues(new Uint8Array(32));

  /**
   * Issues a token for an address.
   *
   * @param address The address it stands for.
   * @param validUntil When it expires, Unix milliseconds; none means never.
   * @param nonce The nonce of the signed request it was issued for.
   * @returns The token text, a JWT.
   */
  issue(address: string, validUntil?: number, nonce: string = "0"): string {
    const createdAt = Date.now();
    const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const payload = base64url(
      JSON.stringify({ address, nonce, createdAt, iat: Math.floor(createdAt / 1000) }),
    );
    const mac = createHmac("sha256", this.#secret).update(`${header}.${payload}`).digest();
    const token = `${header}.${payload}.${base64url(mac)}`;
    this.#issued.set(token, { address, validUntil });
    return token;
  }

  /**
   * The address a header's token stands for, if it is a current token.
   *
   * @param header The `Authorization` header: `Bearer <token>` (a bare token is read too).
   * @param now The clock.
   * @returns The address, or undefined.
   */
  ownerOf(header: string | null, now: number = Date.now()): string | undefined {
    const token = /^(?:Bearer\s+)?(\S+)$/i.exec(header?.trim() ?? "")?.[1];
    const entry = token ? this.#issued.get(token) : undefined;
    if (!entry || (entry.validUntil !== undefined && entry.validUntil <= now)) return undefined;
    return entry.address;
  }
}
