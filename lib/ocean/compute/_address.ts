/**
 * One consistent form of the consumer address: the EIP-55 checksummed
 * string. Nodes compare addresses case-sensitively in places, so every
 * request of tidepool sends the same string.
 *
 * @module
 */

import { TidepoolError } from "../../http/errors.ts";
import { checksumAddress as eip55 } from "../_address.ts";
import type { Hex, Signer } from "../signer.ts";

/** The EIP-55 form of an address; throws on anything but 0x and 40 hex digits. */
export function checksumAddress(address: unknown, what = "address"): Hex {
  if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new TidepoolError(`Invalid ${what}: ${String(address).slice(0, 60)}`, {
      hint: "An address is 0x followed by 40 hex characters",
    });
  }
  return eip55(address);
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
