/**
 * Which node serves an asset: a DDO's `serviceEndpoint` names it (spec
 * section 2). A request for a service another node serves goes nowhere
 * useful here (this node cannot open that node's encrypted files, and its
 * fees and orders are not that node's), so it is refused, naming both nodes,
 * before anything is signed, ordered or paid. The endpoint comes from a DDO,
 * an untrusted document: tidepool never follows it on its own.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import type { Ddo } from "./ddo.ts";

/** A node address reduced to what identifies it: scheme, host, port and path without trailing slashes. */
function nodeKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}

/**
 * Throws unless the service `serviceId` of `ddo` is served by the node at
 * `baseUrl` (or names no node at all).
 *
 * @param baseUrl This client's node.
 * @param ddo The asset.
 * @param serviceId The service used.
 * @param action What the call does, for the message: `start a compute job`.
 */
export function checkServedHere(
  baseUrl: string,
  ddo: Ddo,
  serviceId: string,
  action: string,
): void {
  const service = ddo?.services?.find((s) => s.id === serviceId);
  const endpoint = service?.serviceEndpoint;
  if (typeof endpoint !== "string" || endpoint.trim() === "") return;
  const here = nodeKey(baseUrl);
  const there = nodeKey(endpoint.trim());
  if (there !== undefined && there === here) return;
  const shown = endpoint.trim().slice(0, 200);
  throw new TidepoolError(
    `Cannot ${action}: service ${serviceId} of ${ddo.id} is served by ${
      there === undefined ? `"${shown}", which is no node address` : shown
    }, not by this node (${baseUrl})`,
    {
      hint: there === undefined
        ? "The DDO names no usable node for this service; ask its publisher"
        : `Use a client of the node that serves it, new OceanNode("${there}"), once you trust that node: ` +
          "tidepool does not follow a DDO's endpoint by itself, since signatures, orders and payments would " +
          "then go to a node you did not name",
    },
  );
}
