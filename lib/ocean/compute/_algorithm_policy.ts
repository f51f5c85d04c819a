/**
 * The algorithm policy of a dataset's compute service, checked before a job
 * is signed or sent: which published algorithms the dataset admits.
 *
 * Ocean's DDO specification: a missing `publisherTrustedAlgorithms` or
 * `publisherTrustedAlgorithmPublishers` admits any published algorithm; an
 * empty one admits none; a listed algorithm DID, a listed publisher address,
 * or `*`, admits. tidepool reads the two lists together: with neither
 * given any algorithm passes; otherwise one of the given lists must admit it.
 * `allowRawAlgorithm: true` admits any algorithm too (raw code is the wider
 * permission). The choice is recorded in docs/ASSUMPTIONS.md.
 *
 * @module
 */

import type { Ddo } from "../ddo.ts";
import { ddoBody, nftOf } from "../_ddo_forms.ts";

/** Why a dataset's compute service refuses an algorithm, or undefined when it admits it. */
export function algorithmRefusal(
  dataset: Ddo,
  serviceId: string,
  algorithm: Ddo,
): string | undefined {
  const services = ddoBody(dataset).services ?? [];
  const service = services.find((s) => s.id === serviceId);
  if (!service) return `dataset ${dataset.id} has no service ${serviceId}`;
  if (service.type !== "compute" || !service.compute) {
    return `service ${serviceId} of dataset ${dataset.id} is not a compute service`;
  }
  const compute = service.compute as Record<string, unknown>;
  if (compute.allowRawAlgorithm === true) return undefined;
  const dids = listOf(
    compute.publisherTrustedAlgorithms,
    (entry) => typeof entry === "string" ? entry : (entry as { did?: unknown })?.did,
  );
  const publishers = listOf(compute.publisherTrustedAlgorithmPublishers, (entry) => entry);
  if (dids === undefined && publishers === undefined) return undefined;
  const owner = String(nftOf(algorithm)?.owner ?? "").toLowerCase();
  const admitted = (dids?.some((did) => did === "*" || did === algorithm.id) ?? false) ||
    (publishers?.some((p) => p === "*" || (owner !== "" && p.toLowerCase() === owner)) ?? false);
  if (admitted) return undefined;
  if ((dids?.length ?? 0) === 0 && (publishers?.length ?? 0) === 0) {
    return `dataset ${dataset.id} trusts no algorithm (its trusted algorithm and publisher lists are empty and raw algorithms are not allowed)`;
  }
  const said = [
    dids?.length ? `algorithms ${dids.join(", ")}` : undefined,
    publishers?.length ? `publishers ${publishers.join(", ")}` : undefined,
  ].filter(Boolean).join(" and ");
  return `dataset ${dataset.id} does not trust algorithm ${algorithm.id} (it trusts ${said})`;
}

/** A policy list as strings, or undefined when the DDO does not give it. */
function listOf(value: unknown, pick: (entry: unknown) => unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map(pick).filter((v): v is string => typeof v === "string");
}
