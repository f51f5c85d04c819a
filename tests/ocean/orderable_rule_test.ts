/**
 * ocean-node's initialize rule is written twice on purpose: the client's
 * pre-check (`refuseUnorderable`) and the sandbox node's answer
 * (`initializeRefusal`) are kept apart so that a wrong rule in one does not
 * make the other agree with it. This holds both to ocean-node's verdict
 * (src/components/core/handler/downloadHandler.ts, feesHandler.ts): an
 * asset with no NFT, or an NFT in state 0 or 1, is orderable; any other
 * state, or an NFT without one, is refused first; then a compute service.
 */

import assert from "node:assert/strict";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { refuseUnorderable } from "../../lib/ocean/order/_orderable.ts";
import { initializeRefusal } from "../../lib/sandbox/ocean/compute/_file_routes.ts";

type Verdict = "orderable" | "state" | "compute";

/** An asset's NFT as the test varies it: none, one without a state, or one in a state. */
type Nft = undefined | { state?: number };

/** ocean-node's verdict, written out for the test. */
function expected(nft: Nft, type: string): Verdict {
  if (nft && nft.state !== 0 && nft.state !== 1) return "state";
  return type === "compute" ? "compute" : "orderable";
}

function sandboxVerdict(nft: Nft, type: string): Verdict {
  const refusal = initializeRefusal(nft, type);
  if (refusal === undefined) return "orderable";
  if (/^Nft not present .* ACTIVE or UNLISTED\.$/.test(refusal)) return "state";
  assert.equal(refusal, "Use the initializeCompute endpoint to initialize compute jobs");
  return "compute";
}

function clientVerdict(nft: Nft, type: string): Verdict {
  const ddo = { indexedMetadata: nft === undefined ? {} : { nft } } as Ddo;
  try {
    refuseUnorderable(ddo, "did:op:1", { id: "s1", type });
    return "orderable";
  } catch (error) {
    const message = (error as Error).message;
    if (/its NFT (state is |has no state)/.test(message)) return "state";
    assert.match(message, /is a compute service/);
    return "compute";
  }
}

Deno.test("the client's pre-check and the sandbox node refuse the same orders, as ocean-node does", () => {
  const seen = new Set<Verdict>();
  const nfts: Nft[] = [undefined, {}, ...[0, 1, 2, 3, 4, 5, -1, 6].map((state) => ({ state }))];
  for (const nft of nfts) {
    for (const type of ["access", "compute", "download", ""]) {
      const want = expected(nft, type);
      seen.add(want);
      const where = `NFT ${JSON.stringify(nft)}, service type ${JSON.stringify(type)}`;
      assert.equal(sandboxVerdict(nft, type), want, `sandbox: ${where}`);
      assert.equal(clientVerdict(nft, type), want, `client: ${where}`);
    }
  }
  assert.equal(seen.size, 3, "every verdict is reached");
});
