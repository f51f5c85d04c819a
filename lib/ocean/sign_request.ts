import { checkCall } from "./_option_rules.ts";
import { nodeHashBytes } from "./_node_hash_bytes.ts";
import type { Hex, Signer } from "./signer.ts";

/**
 * The commands the node signs, per endpoint (spec section 5); the spec shows
 * no command for a job list with metrics or for the token call, so those two
 * are ocean-node's own names (`getComputeStatus`, `createAuthToken`), as
 * are the stop and the log stream's (`stopCompute`,
 * `getComputeStreamableLogs`) and decrypt's (`decryptDDO`), as
 * docs/ASSUMPTIONS.md records.
 */
export type SignedCommand =
  | "encrypt"
  | "download"
  | "freeStartCompute"
  | "startCompute"
  | "getComputeResult"
  | "validateDDO"
  | "getComputeStatus"
  | "createAuthToken"
  | "stopCompute"
  | "getComputeStreamableLogs"
  | "decryptDDO";

/** The three fields a signed request carries. */
export interface SignedFields {
  /** The signer's address, exactly the string that was signed. */
  consumerAddress: Hex;
  /** The nonce, a digit string. */
  nonce: string;
  /** The EIP-191 signature. */
  signature: Hex;
}

/**
 * Signs a node request: message = consumerAddress + nonce + command; hash =
 * keccak-256 of its UTF-8 bytes; signature = EIP-191 personal signature over
 * the hash as ocean-node and ocean.js read it, a number's bytes (so without
 * leading zero bytes).
 *
 * @param signer The signer; its `address` is sent as given.
 * @param command The endpoint's command.
 * @param options The nonce to use (a digit string).
 * @returns The fields to send.
 *
 * @example Signing a free compute start
 * ```ts
 * import { signerFromPrivateKey } from "./signer.ts";
 * const signer = signerFromPrivateKey("0x" + "11".repeat(32));
 * const fields = await signRequest(signer, "freeStartCompute", { nonce: "1700000000000" });
 * console.log(fields.consumerAddress === signer.address);
 * ```
 */
export async function signRequest(
  signer: Signer,
  command: SignedCommand,
  options: { nonce: string },
): Promise<SignedFields> {
  checkCall("signRequest", options);
  if (!/^[0-9]+$/.test(options.nonce)) {
    throw new TypeError(`Invalid nonce: ${options.nonce}: a nonce is a string of digits`);
  }
  const hash = nodeHashBytes(`${signer.address}${options.nonce}${command}`);
  const signature = await signer.signMessage({ message: { raw: hash } });
  return { consumerAddress: signer.address, nonce: options.nonce, signature };
}
