/**
 * Chain failures as tidepool errors. viem's messages print the RPC URL, and
 * a provider's URL often holds its key (`https://host/v3/<key>`): such a URL
 * is registered as a secret, so it is redacted from every error and log
 * line, and viem's error is kept only as the redacted cause of one that
 * says what failed.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { registerSecret } from "../../errors/redact.ts";

/**
 * Runs chain reads or writes; a failure that is not already a tidepool
 * error becomes one that names the chain's origin only.
 *
 * @param rpcUrl The JSON-RPC URL, which may hold a provider key.
 * @param action What was being done, for the message: `read orders`.
 * @param run The chain calls.
 * @returns What they return.
 */
export async function onChain<T>(
  rpcUrl: string,
  action: string,
  run: () => Promise<T>,
): Promise<T> {
  keepRpcUrlSecret(rpcUrl);
  try {
    return await run();
  } catch (error) {
    throw chainError(error, rpcUrl, action);
  }
}

/** Registers an RPC URL with a path, query or credentials as a secret (a bare origin is no secret). */
export function keepRpcUrlSecret(rpcUrl: string): void {
  try {
    const url = new URL(rpcUrl);
    if (url.pathname.replace(/\/+$/, "") || url.search || url.username || url.password) {
      registerSecret(rpcUrl);
    }
  } catch {
    // Not a URL: viem refuses it with a message of its own.
  }
}

function chainError(error: unknown, rpcUrl: string, action: string): unknown {
  if (error instanceof TidepoolError || !(error instanceof Error)) return error;
  // viem's shortMessage is the what, without the request and the URL.
  const viem = error as Error & { shortMessage?: string; details?: string };
  return new TidepoolError(
    `Cannot ${action}: ${(viem.shortMessage ?? error.message).replace(/\.$/, "")}`,
    {
      details: viem.details,
      detailsLabel: "Chain said",
      // A revert is the chain's answer, not a failure to reach it.
      hint: /revert/i.test(`${viem.shortMessage} ${viem.details}`)
        ? "The chain refused the call: check the datatoken's pricing, your balances and the provider fee, then try again"
        : rpcCodes(error).includes(LIMIT_EXCEEDED)
        ? "The RPC provider refused a request as too large, often a log search over too many blocks: give logRangeBlocks the range it allows (see its error above)"
        : `Check that the chain at ${
          originOf(rpcUrl) || "rpcUrl"
        } is reachable and that rpcUrl and chainId name it`,
      cause: error,
    },
  );
}

/** JSON-RPC's "limit exceeded" (EIP-1474), which providers send for a too-wide `eth_getLogs`. */
const LIMIT_EXCEEDED = -32005;

/** The JSON-RPC error codes along an error's cause chain (viem wraps the provider's). */
function rpcCodes(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    codes.push((e as { code?: unknown }).code);
    e = e.cause;
  }
  return codes;
}

/** The scheme, host and port of a URL (no path, which may hold a key); empty when it is not one. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}
