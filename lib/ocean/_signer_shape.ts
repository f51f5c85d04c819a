/**
 * What a signer is, apart from the ways to make one: the address checks
 * use it, and the signer factories use those checks.
 *
 * @module
 */

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/**
 * Anything that can sign Ocean node requests: a signer made by
 * {@linkcode signerFromPrivateKey}, a viem `Account`, a wallet client's
 * account, a hardware signer: an address and a viem-style `signMessage`.
 */
export interface Signer {
  /** The checksummed address, sent as `consumerAddress` exactly as given here. */
  readonly address: Hex;
  /** Signs an EIP-191 personal message; tidepool passes `{ message: { raw } }`. */
  signMessage(args: { message: string | { raw: Hex | Uint8Array } }): Promise<Hex>;
}
