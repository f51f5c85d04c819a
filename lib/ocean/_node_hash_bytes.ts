/**
 * The bytes a node request's signature covers, as ocean-node reads them.
 *
 * @module
 */

import { keccak256 } from "./_keccak.ts";

/**
 * The hash of a signed request's message as ocean-node verifies its
 * signature: keccak-256 of the message's UTF-8 bytes, read as a big-endian
 * number (ethers' `toBeArray`, which ocean.js signs too), so without its
 * leading zero bytes. Signing all 32 bytes differs whenever the hash starts
 * with 0x00, about one request in 256, and the node answers those 401.
 *
 * @param message The message, e.g. address + nonce + command.
 * @returns The bytes to sign with EIP-191.
 *
 * @example The bytes signed for a request
 * ```ts
 * const bytes = nodeHashBytes("0x0000000000000000000000000000000000000001" + "1" + "download");
 * console.log(bytes.length <= 32); // true
 * ```
 */
export function nodeHashBytes(message: string): Uint8Array {
  const hash = keccak256(new TextEncoder().encode(message));
  const first = hash.findIndex((byte) => byte !== 0);
  return first < 0 ? new Uint8Array(0) : hash.subarray(first);
}
