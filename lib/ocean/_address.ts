/**
 * One consistent form of an address: the EIP-55 checksummed string. Nodes
 * compare addresses case-sensitively in places (the signed message, the job
 * owner, DDO owners), so every request of tidepool sends the same string.
 * Computed here without loading viem (which alone doubles the import time of
 * tidepool).
 *
 * @module
 */

import { keccak256 } from "./_keccak.ts";
import { TidepoolError } from "../errors/errors.ts";
import type { Hex, Signer } from "./_signer_shape.ts";
import { checkAddress } from "./_validate.ts";

/**
 * The EIP-55 checksummed form of an address.
 *
 * @param address `0x` and 40 hex digits, in any case; anything else throws.
 * @param what How to name the value in the error.
 * @returns The checksummed address.
 */
export function checksumAddress(address: unknown, what = "address"): Hex {
  const lower = checkAddress(address, what).slice(2).toLowerCase();
  const hash = keccak256(new TextEncoder().encode(lower));
  let checksummed = "";
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 ? 0 : 4)) & 0xf;
    checksummed += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return `0x${checksummed}`;
}

/** A signer whose `address` is the checksummed form (the key is untouched). */
export function checksummedSigner(signer: Signer): Signer {
  if (
    typeof signer !== "object" || signer === null || typeof signer.signMessage !== "function"
  ) {
    throw new TidepoolError("Invalid signer: expected an object with address and signMessage", {
      hint: "Pass signerFromEnv(), signerFromPrivateKey(key) or a viem account",
    });
  }
  const address = checksumAddress(signer.address, "signer address");
  if (address === signer.address) return signer;
  return { address, signMessage: (args) => signer.signMessage(args) };
}

/** The consumer address of a signer or an address string, checksummed. */
export function consumerAddress(consumer: string | Signer): Hex {
  return typeof consumer === "string"
    ? checksumAddress(consumer, "consumer address")
    : checksummedSigner(consumer).address;
}
