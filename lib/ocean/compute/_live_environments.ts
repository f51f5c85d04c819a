/**
 * The environments as the node describes them now, for a start: never
 * answered from a recording, since a start decides on the allowlist and the
 * running free jobs of this moment.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import { ProtocolError } from "../../errors/errors.ts";
import type { ComputeEnvironmentLimits } from "./types.ts";

/** Reads `GET /api/services/computeEnvironments` live (not cached). */
export async function liveEnvironments(
  http: HttpClient,
  chainId: number,
  signal?: AbortSignal,
): Promise<ComputeEnvironmentLimits[]> {
  const response = await http.request({
    path: "/api/services/computeEnvironments",
    query: { chainId },
    cacheable: false,
    signal,
  });
  const environments = response.json<unknown>();
  if (!Array.isArray(environments)) {
    throw new ProtocolError("Unexpected computeEnvironments answer: expected an array", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  return environments as ComputeEnvironmentLimits[];
}
