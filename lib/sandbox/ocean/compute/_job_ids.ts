/**
 * The job ids of the sandbox node, read as ocean-node reads them: a start
 * answers `<cluster hash>-<jobId>`, where the cluster hash is the part of
 * the environment id before its first `-`, and every route that takes an id
 * back (status, result, stop, logs) splits it at its first `-`, so an
 * engine id may itself hold dashes (src/components/core/compute/*.ts).
 *
 * @module
 */

import type { ComputeNode } from "./_context.ts";

/**
 * The cluster hash of an environment id: its part before the first `-`.
 *
 * @example
 * ```ts
 * clusterHash("0xab12-9f00"); // "0xab12"
 * ```
 */
export function clusterHash(environment: string): string {
  return environment.split("-")[0];
}

/**
 * The engine's own id of a `<cluster hash>-<jobId>`, or undefined when the
 * node has no environment of that cluster: ocean-node's engine lookup by
 * hash then fails (500 `Invalid C2D Environment` on result, stop and logs).
 * A short id, with no `-` or an empty hash, names no cluster either.
 *
 * @example
 * ```ts
 * const node = { environments: [{ id: "0xab12-9f00" }] };
 * engineJobId(node, "0xab12-7c3e"); // "7c3e"
 * engineJobId(node, "7c3e"); // undefined
 * ```
 */
export function engineJobId(
  node: { environments: readonly Pick<ComputeNode["environments"][number], "id">[] },
  jobId: string,
): string | undefined {
  const dash = jobId.indexOf("-");
  if (dash <= 0) return undefined;
  const cluster = jobId.slice(0, dash);
  return node.environments.some((env) => clusterHash(env.id) === cluster)
    ? jobId.slice(dash + 1)
    : undefined;
}
