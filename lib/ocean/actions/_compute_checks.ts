/**
 * What the compute actions check before anything is signed, ordered or
 * paid: that this node serves each asset's service, and that each dataset
 * admits the algorithm; and the chain a call defaults to.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import type { StartFreeComputeParameters } from "../compute/start_free_compute.ts";
import type { NodeHandle } from "./_node.ts";
import { ddo, info } from "./reads.ts";

/** The node's first chain, or Sepolia (11155111) when it names none. */
export async function defaultChainId(node: NodeHandle): Promise<number> {
  const chainIds = (await info(node)).chainIds ?? [];
  const first = Number(chainIds[0]);
  return Number.isInteger(first) && first > 0 ? first : 11155111;
}

/**
 * Each asset's service must be served by this node (its DDO's
 * `serviceEndpoint`), and each dataset's compute service must admit the
 * algorithm: read from the DDOs before signing, ordering or paying.
 */
export async function checkAlgorithmPolicy(
  node: NodeHandle,
  parameters: Pick<StartFreeComputeParameters, "algorithm" | "datasets">,
): Promise<void> {
  const algorithmDid = parameters.algorithm?.documentId;
  if (typeof algorithmDid !== "string" || !Array.isArray(parameters.datasets)) return;
  const algorithm = await ddo(node, algorithmDid);
  const [{ checkServedHere }, { algorithmRefusal }] = await Promise.all([
    import("../_served_here.ts"),
    import("../compute/_algorithm_policy.ts"),
  ]);
  const here = node.http.baseUrl;
  checkServedHere(here, algorithm, parameters.algorithm.serviceId, "start a compute job");
  const refusals: string[] = [];
  for (const ref of parameters.datasets) {
    if (typeof ref?.documentId !== "string") continue;
    const dataset = await ddo(node, ref.documentId);
    checkServedHere(here, dataset, ref.serviceId, "start a compute job");
    const refusal = algorithmRefusal(dataset, ref.serviceId, algorithm);
    if (refusal) refusals.push(refusal);
  }
  if (refusals.length > 0) {
    throw new TidepoolError(`Cannot start compute job: ${refusals.join("; ")}`, {
      hint:
        "Pick an algorithm the dataset trusts (the trustedAlgorithms column of the assets table), or another dataset",
    });
  }
}
