import { hexToBytes, keccak256, recoverMessageAddress, stringToBytes } from "viem";

/** The outcome of checking a signed request. */
export type SignatureCheck = { ok: true } | { ok: false; status: 401; text: string };

/** 401 text of a wrong signature or a nonce not above the stored one (spec section 7). */
export const MISMATCH_TEXT = "consumer address and nonce signature mismatch";
/** 401 text of a request without credentials (spec section 7). */
export const MISSING_CREDENTIALS_TEXT =
  "Invalid request: a token, or an address, signature, message and nonce, must be provided";

/**
 * The sandbox node's nonce storage and signature check (spec section 5):
 * nonces stored per address, a signed request accepted only when its nonce
 * is a digit string above the stored one and its signature recovers (viem)
 * to the address sent, in one of the two forms ocean-node accepts; the
 * nonce is then stored.
 *
 * @example Checking a request signed by a test key
 * ```ts
 * const store = new NonceStore();
 * console.log(store.get("0x0000000000000000000000000000000000000001")); // "0"
 * ```
 */
export class NonceStore {
  readonly #stored = new Map<string, string>();
  /** Fault switch: answer the next signed request 401 mismatch, whatever it carries. */
  mismatchNext = false;

  /**
   * Creates a store holding the given nonces; unknown addresses start at `0`.
   *
   * @param initial Nonces stored at start, by address.
   */
  constructor(initial: Record<string, string> = {}) {
    for (const [address, nonce] of Object.entries(initial)) this.set(address, nonce);
  }

  /**
   * The stored nonce of an address, `"0"` when none.
   *
   * @param address Any case.
   * @returns The nonce.
   */
  get(address: string): string {
    return this.#stored.get(address.toLowerCase()) ?? "0";
  }

  /**
   * Stores a nonce (as another client would, raising it).
   *
   * @param address Any case.
   * @param nonce A digit string.
   */
  set(address: string, nonce: string): void {
    this.#stored.set(address.toLowerCase(), nonce);
  }

  /**
   * Whether a nonce is a digit string above the one stored for an address.
   *
   * @param address Any case.
   * @param nonce The nonce as sent.
   * @returns Whether a request may use it.
   */
  rises(address: string, nonce: string): boolean {
    return /^[0-9]+$/.test(nonce) && BigInt(nonce) > BigInt(this.get(address));
  }

  /**
   * Checks a signed request and stores its nonce when it is accepted.
   *
   * @param fields The consumer address, nonce and signature as sent.
   * @param command The endpoint's command.
   * @returns Whether it is accepted, and the 401 text otherwise.
   */
  async verify(
    fields: { consumerAddress?: unknown; nonce?: unknown; signature?: unknown },
    command: string,
  ): Promise<SignatureCheck> {
    const { consumerAddress, nonce, signature } = fields;
    if (
      typeof consumerAddress !== "string" || typeof nonce !== "string" ||
      typeof signature !== "string" || !consumerAddress || !nonce || !signature
    ) {
      return { ok: false, status: 401, text: MISSING_CREDENTIALS_TEXT };
    }
    if (this.mismatchNext) {
      this.mismatchNext = false;
      return { ok: false, status: 401, text: MISMATCH_TEXT };
    }
    if (!this.rises(consumerAddress, nonce)) {
      return { ok: false, status: 401, text: MISMATCH_TEXT };
    }
    const message = `${consumerAddress}${nonce}${command}`;
    if (!(await signedByAddress(message, signature as `0x${string}`, consumerAddress))) {
      return { ok: false, status: 401, text: MISMATCH_TEXT };
    }
    this.set(consumerAddress, nonce);
    return { ok: true };
  }
}

/**
 * Whether a signature over a message's hash recovers to an address, in the
 * two forms ocean-node's nonce check accepts (ethers' `verifyMessage` on the
 * hash as text, and on `toBeArray(hash)`: the hash as a number's bytes,
 * leading zero bytes dropped). All 32 bytes signed is a third form the node
 * does not accept when the hash starts with 0x00, so neither does the sandbox.
 */
async function signedByAddress(
  message: string,
  signature: `0x${string}`,
  address: string,
): Promise<boolean> {
  const hash = keccak256(stringToBytes(message));
  const bytes = hexToBytes(hash);
  const first = bytes.findIndex((byte) => byte !== 0);
  const forms = [hash, { raw: first < 0 ? new Uint8Array(0) : bytes.subarray(first) }];
  for (const form of forms) {
    const recovered = await recoverMessageAddress({ message: form, signature }).catch(() => "");
    if (recovered.toLowerCase() === address.toLowerCase()) return true;
  }
  return false;
}
