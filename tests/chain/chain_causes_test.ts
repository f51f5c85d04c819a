/**
 * Chain failures told apart by cause (the error classes viem throws, never
 * their text), each with the hint that fits it.
 */

import assert from "node:assert/strict";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooLowError,
  TransactionExecutionError,
} from "viem";
import { causeOf, onChain } from "../../lib/ocean/order/_chain_errors.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";

/** A viem error as a write throws it: the cause wrapped in the transaction's execution error. */
const sent = (cause: Error) =>
  new TransactionExecutionError(cause as never, { account: undefined } as never);

const CASES: [string, Error, ReturnType<typeof causeOf>, RegExp][] = [
  ["nonce too low", sent(new NonceTooLowError({ nonce: 3 })), "nonce", /took the same nonce/],
  [
    "insufficient funds",
    sent(new InsufficientFundsError({})),
    "funds",
    /cannot pay this transaction's value and gas/,
  ],
  [
    "a revert with its reason",
    new ContractFunctionExecutionError(
      new ContractFunctionRevertedError({
        abi: [],
        functionName: "startOrder",
        message: "bad fee",
      }),
      { abi: [], functionName: "startOrder", args: [] } as never,
    ),
    "revert",
    /The chain refused the call/,
  ],
  [
    "an unreachable chain",
    new HttpRequestError({ url: "http://127.0.0.1:9", details: "fetch failed" }),
    "unreachable",
    /Check that the chain at http:\/\/127\.0\.0\.1:8545 is reachable/,
  ],
  ["an error of no known cause", new Error("something else"), "other", /answered with an error/],
];

for (const [what, error, cause, hint] of CASES) {
  Deno.test(`chain errors: ${what} is told by its class, with its own hint`, async () => {
    assert.equal(causeOf(error), cause);
    const thrown = await onChain("http://127.0.0.1:8545", "send the order", () => {
      throw error;
    }).catch((e) => e);
    assert.ok(thrown instanceof TidepoolError);
    assert.match(thrown.message, /^Cannot send the order: /);
    assert.match(String(thrown.hint), hint);
    for (const [, , other, otherHint] of CASES) {
      if (other !== cause) assert.doesNotMatch(String(thrown.hint), otherHint);
    }
  });
}
