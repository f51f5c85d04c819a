/**
 * ocean-node's initialize rule is written twice on purpose: the client's
 * pre-check (`refuseUnorderable`) and the sandbox node's answer
 * (`initializeRefusal`) are kept apart so that a wrong rule in one does not
 * make the other agree with it. This holds both to ocean-node's verdict
 * (src/components/core/handler/downloadHandler.ts, feesHandler.ts): NFT
 * state 0 or 1 (or none shown) is orderable, any other state is refused
 * first, then a compute service is refused.
 */

import assert from "node:assert/strict";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { refuseUnorderable } from "../../lib/ocean/order/_orderable.ts";
import { initializeRefusal } from "../../lib/sandbox/ocean/compute/_file_routes.ts";

type Verdict = "orderable" | "state" | "compute";

/** ocean-node's verdict, written out for the test. */
function expected(state: number | undefined, type: string): Verdict {
  if (state !== undefined && state !== 0 && state !== 1) return "state";
  return type === "compute" ? "compute" : "orderable";
}

function sandboxVerdict(state: number | undefined, type: string): Verdict {
  const refusal = initializeRefusal(state, type);
  if (refusal === undefined) return "orderable";
  if (/^Nft not present .* ACTIVE or UNLISTED\.$/.test(refusal)) return "state";
  assert.equal(refusal, "Use the initializeCompute endpoint to initialize compute jobs");
  return "compute";
}

function clientVerdict(state: number | undefined, type: string): Verdict {
  const ddo = { indexedMetadata: state === undefined ? {} : { nft: { state } } } as Ddo;
  try {
    refuseUnorderable(ddo, "did:op:1", { id: "s1", type });
    return "orderable";
  } catch (error) {
    const message = (error as Error).message;
    if (/its NFT state is /.test(message)) return "state";
    assert.match(message, /is a compute service/);
    return "compute";
  }
}

Deno.test("the client's pre-check and the sandbox node refuse the same orders, as ocean-node does", () => {
  const seen = new Set<Verdict>();
  for (const state of [undefined, 0, 1, 2, 3, 4, 5, -1, 6]) {
    for (const type of ["access", "compute", "download", ""]) {
      const want = expected(state, type);
      seen.add(want);
      const where = `state ${state}, service type ${JSON.stringify(type)}`;
      assert.equal(sandboxVerdict(state, type), want, `sandbox: ${where}`);
      assert.equal(clientVerdict(state, type), want, `client: ${where}`);
    }
  }
  assert.equal(seen.size, 3, "every verdict is reached");
});
