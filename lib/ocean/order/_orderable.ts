/**
 * What ocean-node's `initialize` refuses to order, said before it is asked:
 * a compute service (it answers "Use the initializeCompute endpoint") and an
 * asset whose NFT state is not 0 (active) or 1 (its check reads the indexes
 * of `[ACTIVE, UNLISTED]`, so 5, unlisted, is refused too). The node answers
 * both with a plain-text 500 that a retry cannot change.
 *
 * The sandbox node has its own copy of the rule (`initializeRefusal`), on
 * purpose: it plays the node, and a rule shared with the client it tests
 * would hide its own bug. tests/ocean/orderable_rule_test.ts holds the two
 * to the same verdicts.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { Ddo } from "../ddo.ts";

const STATES: Record<number, string> = {
  2: "deprecated",
  3: "revoked",
  4: "ordering disabled",
  5: "unlisted (ocean-node orders only states 0 and 1)",
};

/**
 * Refuses a service ocean-node will not initialize an order for. It reads
 * `indexedMetadata.nft` as ocean-node does (an NFT without state 0 or 1,
 * including one without a state, is refused; no NFT passes); a DDO of the
 * older shape with only a top-level `nft` is refused only for a state
 * other than 0 or 1, and otherwise left to the node.
 *
 * @param ddo The asset's description, read live.
 * @param did The asset.
 * @param service The service to order.
 */
export function refuseUnorderable(
  ddo: Ddo,
  did: string,
  service: { id: string; type?: string },
): void {
  const indexed = ddo.indexedMetadata?.nft;
  const state = indexed ? indexed.state : ddo.nft?.state;
  const orderable = indexed
    ? ["0", "1"].includes(String(state))
    : state === undefined || state === null || state === 0 || state === 1;
  if (!orderable) {
    const what = typeof state === "number" && STATES[state] ? ` (${STATES[state]})` : "";
    const stated = state === undefined || state === null
      ? "its NFT has no state"
      : `its NFT state is ${String(state).slice(0, 20)}${what}`;
    throw new TidepoolError(
      `Cannot order ${did}: ${stated}; the node orders only assets in state 0 (active) or 1`,
      {
        hint:
          "Nothing was sent. The publisher must set the asset active again; node.ddo(did) shows indexedMetadata.nft.state",
      },
    );
  }
  if (service.type === "compute") {
    throw new TidepoolError(
      `Cannot order ${did}: service ${service.id} is a compute service, which the node does not sell for download`,
      {
        hint:
          "Nothing was sent. Run a job on it with quoteCompute / startCompute, or order one of its access services",
      },
    );
  }
}
