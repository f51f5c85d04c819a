/**
 * Picks a (dataset, algorithm, environment) triple the sandbox node will
 * run as a free job, for the demo, the notebooks and the tests.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";

/** A free compute job the sandbox node accepts, ready for `startFreeCompute`. */
export interface ComputeExample {
  /** The dataset's compute service. */
  dataset: { documentId: string; serviceId: string };
  /** An algorithm the dataset trusts (or any, when it allows raw algorithms). */
  algorithm: { documentId: string; serviceId: string };
  /** The id of the environment to run in. */
  environment: string;
}

function listed(ddo: Ddo | undefined): ddo is Ddo {
  return !!ddo && (ddo.indexedMetadata?.nft?.state ?? 0) === 0;
}

function algorithmRef(ddo: Ddo) {
  const service = ddo.services.find((s) => s.type === "compute") ?? ddo.services[0];
  return { documentId: ddo.id, serviceId: service.id };
}

/**
 * The first listed dataset, in publication order, whose compute service
 * admits a listed algorithm of the catalogue: one of its
 * `publisherTrustedAlgorithms`, or, with `allowRawAlgorithm`, the first
 * listed algorithm.
 *
 * @param indexed The DDOs the node serves.
 * @param environment The environment id.
 * @returns The triple.
 * @throws Error when the catalogue has no such pair (too few assets).
 */
export function findComputeExample(indexed: readonly Ddo[], environment: string): ComputeExample {
  const byDid = new Map(indexed.map((ddo) => [ddo.id, ddo]));
  const anyAlgorithm = indexed.find((ddo) =>
    ddo.metadata.type === "algorithm" && listed(ddo) && ddo.services.length > 0
  );
  for (const ddo of indexed) {
    if (ddo.metadata.type !== "dataset" || !listed(ddo)) continue;
    for (const service of ddo.services) {
      if (service.type !== "compute" || !service.compute) continue;
      const trusted = (service.compute.publisherTrustedAlgorithms ?? [])
        .map((entry) => byDid.get(String((entry as { did?: unknown }).did)))
        .find((algo) => listed(algo) && algo.metadata.type === "algorithm");
      const algorithm = trusted ?? (service.compute.allowRawAlgorithm ? anyAlgorithm : undefined);
      if (!algorithm) continue;
      return {
        dataset: { documentId: ddo.id, serviceId: service.id },
        algorithm: algorithmRef(algorithm),
        environment,
      };
    }
  }
  throw new Error(
    "No compute example in this sandbox: no listed dataset trusts a listed algorithm; start it with more assets",
  );
}
