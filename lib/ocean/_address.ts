/**
 * EIP-55 checksummed addresses without loading viem (which alone doubles
 * the import time of tidepool).
 *
 * @module
 */

import { keccak_256 } from "@noble/hashes/sha3";

/**
 * The EIP-55 checksummed form of a 20-byte hex address.
 *
 * @param address `0x` and 40 hex digits, in any case.
 * @returns The checksummed address.
 */
export function checksumAddress(address: string): `0x${string}` {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let checksummed = "";
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 ? 0 : 4)) & 0xf;
    checksummed += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return `0x${checksummed}`;
}
