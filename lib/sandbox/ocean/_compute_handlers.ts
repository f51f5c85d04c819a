/**
 * `GET /api/services/computeEnvironments`: the node's one list of
 * environments (the trial values of spec section 8 unless given), with the
 * running-job counts of the job engine.
 *
 * @module
 */

import { SEED_CHAIN_ID } from "./assets_seed.ts";
import { json, type OceanState } from "./_state.ts";

/** `GET /api/services/computeEnvironments?chainId=`: `[]` for another chain. */
export function handleEnvironments(url: URL, state: OceanState): Response {
  const chainId = url.searchParams.get("chainId");
  if (chainId !== null && chainId !== String(SEED_CHAIN_ID)) return json([]);
  return json(state.environments.map((env) => {
    const active = state.activeJobs(env.id);
    return { ...env, runningJobs: active, runningfreeJobs: active, ...state.extraFields };
  }));
}
