/**
 * What the Ocean node's actions share: the client they take first (any
 * object with the node's HTTP client, as `OceanNode` is), the node's
 * information and version, and the provenance of a table call.
 *
 * @module
 */

import { ProtocolError } from "../../errors/errors.ts";
import type { HttpClient } from "../../http/client.ts";
import { withProvenance } from "../../table/with_provenance.ts";
import type { NodeInfo } from "../types.ts";

/** What every node action takes first: an `OceanNode` (its HTTP client). */
export interface NodeHandle {
  /** The node's HTTP client. */
  readonly http: HttpClient;
}

/** The node's information: `GET /`. */
export async function readNodeInfo(node: NodeHandle): Promise<NodeInfo> {
  const response = await node.http.request({ path: "/" });
  const info = response.json<NodeInfo>();
  if (!info || typeof info !== "object" || Array.isArray(info)) {
    throw new ProtocolError("Unexpected node information: expected an object", {
      details: response.text(),
      hint: "Check that the URL is the address of an Ocean node",
    });
  }
  return info;
}

const versions = new WeakMap<NodeHandle, Promise<string | undefined>>();

/** The node's version, read once per client; undefined when the node does not say. */
export function nodeVersion(node: NodeHandle): Promise<string | undefined> {
  let version = versions.get(node);
  if (!version) {
    version = readNodeInfo(node).then(
      (info) => typeof info.version === "string" ? info.version : undefined,
      () => undefined,
    );
    versions.set(node, version);
  }
  return version;
}

/** Runs a table call with its provenance: the node, the call, and the node's version. */
export function nodeTable<T>(
  node: NodeHandle,
  call: { operation: string; params: Record<string, unknown> },
  run: () => Promise<T>,
): Promise<T> {
  return withProvenance({
    service: node.http.baseUrl,
    operation: `OceanNode.${call.operation}`,
    params: call.params,
    asOf: async () => ({ nodeVersion: await nodeVersion(node) }),
  }, run);
}

/** Refuses a DDO whose service names another node, before anything is signed for it. */
export async function checkServedHere(
  node: NodeHandle,
  target: { did: unknown; serviceId: unknown; action: string },
): Promise<void> {
  const { did, serviceId, action } = target;
  if (typeof did !== "string" || typeof serviceId !== "string") return;
  const [{ checkServedHere: check }, { fetchDdo }] = await Promise.all([
    import("../_served_here.ts"),
    import("../_ddo.ts"),
  ]);
  check(node.http.baseUrl, await fetchDdo(node.http, did), serviceId, action);
}
