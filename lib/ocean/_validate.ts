/**
 * Local checks of identifiers before a request is sent, so a typo fails with
 * a clear message instead of a server's 400 or a silent empty answer.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { looksLikeSecret, showValue } from "../errors/redact.ts";

const DID = /^did:[a-z0-9]+:[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Throws unless `did` is `did:<method-tag>:<64 lowercase hex>`. */
export function checkDid(did: unknown, what = "DID"): string {
  if (typeof did !== "string" || !DID.test(did)) {
    const shown = typeof did === "string" ? did : String(did);
    const hint = typeof did === "string" && /^did:[a-z0-9]+:[0-9a-fA-F]{64}$/.test(did)
      ? "Write the hex part in lower case"
      : "A DID looks like did:op: followed by 64 lowercase hex characters";
    throw new TidepoolError(`Invalid ${what}: ${shown.slice(0, 120)}`, { hint });
  }
  return did;
}

/** Throws unless `address` is `0x` and 40 hex characters. */
export function checkAddress(address: unknown, what = "address"): string {
  if (typeof address !== "string" || !ADDRESS.test(address)) {
    const shown = looksLikeSecret(String(address))
      ? showValue(address)
      : String(address).slice(0, 120);
    throw new TidepoolError(`Invalid ${what}: ${shown}`, {
      hint: "An address is 0x followed by 40 hex characters",
    });
  }
  return address;
}
