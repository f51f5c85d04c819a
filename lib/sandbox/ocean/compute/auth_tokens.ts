/**
 * The sandbox node's bearer tokens (spec section 5: a token in the
 * `Authorization` header may replace the signature). Issued by
 * POST /api/services/auth/token to a signed request; each stands for one
 * address until it expires.
 *
 * @module
 */

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

  /**
   * Issues a token for an address.
   *
   * @param address The address it stands for.
   * @param validUntil When it expires, Unix milliseconds; none means never.
   * @returns The token text.
   */
  issue(address: string, validUntil?: number): string {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const token = `sbx.${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
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
