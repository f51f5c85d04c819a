/**
 * Chain failures as tidepool errors. viem's messages print the RPC URL, and
 * a provider's URL often holds its key (`https://host/v3/<key>`): such a URL
 * is registered as a secret, so it is redacted from every error and log
 * line, and viem's error is kept only as the redacted cause of one that
 * says what failed.
 *
 * @module
 */

import { CacheMissError, TidepoolError } from "../../errors/errors.ts";
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

/**
 * Registers what an RPC URL may carry a provider key in as secrets: its path
 * and query, and its credentials. The origin stays, so errors say which chain
 * and recordings of two providers are told apart.
 */
export function keepRpcUrlSecret(rpcUrl: string): void {
  try {
    const url = new URL(rpcUrl);
    const pathAndQuery = url.pathname.replace(/^\/+|\/+$/g, "") + url.search;
    if (pathAndQuery) registerSecret(pathAndQuery);
    if (url.username) registerSecret(url.username);
    if (url.password) registerSecret(url.password);
  } catch {
    // Not a URL: viem refuses it with a message of its own.
  }
}

function chainError(error: unknown, rpcUrl: string, action: string): unknown {
  if (error instanceof TidepoolError || !(error instanceof Error)) return error;
  // A read through tidepool's HTTP client failed there (a replay miss, an unreachable
  // node): its own error says what happened better than viem's wrapping of it.
  for (let cause = error.cause; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof CacheMissError) return cause;
    if (cause instanceof TidepoolError) {
      return new TidepoolError(`Cannot ${action}: ${cause.shortMessage}`, {
        details: cause.details,
        detailsLabel: cause.detailsLabel,
        hint: cause.hint,
        cause,
      });
    }
  }
  // viem's shortMessage is the what, without the request and the URL.
  const viem = error as Error & { shortMessage?: string; details?: string };
  return new TidepoolError(
    `Cannot ${action}: ${(viem.shortMessage ?? error.message).replace(/\.$/, "")}`,
    {
      details: viem.details,
      detailsLabel: "Chain said",
      hint: HINTS[causeOf(error)](originOf(rpcUrl) || "rpcUrl"),
      cause: error,
    },
  );
}

/** What made a chain call fail, told by the error classes along its cause chain. */
export type ChainFailure =
  | "nonce"
  | "underpriced"
  | "allowance"
  | "funds"
  | "revert"
  | "range"
  | "unreachable"
  | "other";

/** viem's error classes (by name, since viem loads on first use) for each cause. */
const CAUSES: readonly [ChainFailure, ReadonlySet<string>][] = [
  ["nonce", new Set(["NonceTooLowError", "NonceTooHighError", "NonceMaxValueError"])],
  [
    "funds",
    new Set([
      "InsufficientFundsError",
      "FeeCapTooLowError",
      "IntrinsicGasTooLowError",
      "IntrinsicGasTooHighError",
    ]),
  ],
  [
    "revert",
    new Set(["ContractFunctionRevertedError", "ExecutionRevertedError", "CallExecutionError"]),
  ],
  [
    "unreachable",
    new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]),
  ],
];

/**
 * The cause of a chain failure, from the names of the errors along its
 * cause chain and the JSON-RPC codes they carry, never from message text.
 *
 * @param error What a chain call threw.
 * @returns Its cause; `other` when none is known.
 */
export function causeOf(error: unknown): ChainFailure {
  const names = new Set<string>();
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    names.add(e.name);
    e = e.cause;
  }
  const said = nodeWords(error);
  for (const [cause, words] of NODE_WORDS) {
    if (words.test(said)) return cause;
  }
  for (const [cause, classes] of CAUSES) {
    if ([...names].some((name) => classes.has(name))) return cause;
  }
  if (rpcCodes(error).includes(LIMIT_EXCEEDED)) return "range";
  return "other";
}

/**
 * Causes viem has no class or code for, told by the words nodes and
 * contracts use for them: geth, anvil and erigon say "replacement
 * transaction underpriced" for a second transaction of a nonce already in
 * their pool (viem calls it "Missing or invalid parameters"), and the
 * OpenZeppelin token contracts revert with "insufficient allowance".
 * Matched on what the node or the contract said, never on viem's wording.
 */
const NODE_WORDS: readonly [ChainFailure, RegExp][] = [
  ["underpriced", /replacement transaction underpriced|replacement fee too low/i],
  ["allowance", /insufficient allowance|allowance exceeded|transfer amount exceeds allowance/i],
];

/** What the node or contract said, from the `details` and revert reasons along an error's causes. */
function nodeWords(error: unknown): string {
  const words: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 8; depth++) {
    const fields = e as { details?: unknown; reason?: unknown; data?: { errorName?: unknown } };
    for (const value of [fields.details, fields.reason]) {
      if (typeof value === "string") words.push(value);
    }
    e = e.cause;
  }
  return words.join("\n");
}

/** What to do about each cause; the argument is the chain's origin. */
const HINTS: Record<ChainFailure, (origin: string) => string> = {
  nonce: () =>
    "Another transaction of this wallet took the same nonce, sent from another program or process (tidepool sends one at a time per wallet and chain, and tidepool processes queue on the wallet's lock in its state folder): wait until it is mined, then try again",
  underpriced: () =>
    "Another transaction of this wallet with the same nonce is waiting in the chain's pool, sent by another program or process with this key (or an earlier attempt still pending): wait until it is mined, then try again; sending with a higher fee would replace it",
  allowance: () =>
    "The token allowance this order set was spent or lowered by another transaction of this wallet, from a program or process outside tidepool's wallet lock: nothing more was taken; order again, and keep other programs from spending with this key meanwhile",
  funds: () =>
    "The wallet cannot pay this transaction's value and gas: fund it with the chain's native token, then try again",
  // A revert is the chain's answer, not a failure to reach it.
  revert: () =>
    "The chain refused the call: check the datatoken's pricing, your balances and the provider fee, then try again",
  range: () =>
    "The RPC provider refused a request as too large, often a log search over too many blocks: give logRangeBlocks the range it allows (see its error above)",
  unreachable: (origin) =>
    `Check that the chain at ${origin} is reachable and that rpcUrl and chainId name it`,
  other: (origin) =>
    `The chain at ${origin} answered with an error (above): check that rpcUrl and chainId name the chain you mean, and the call's inputs`,
};

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
