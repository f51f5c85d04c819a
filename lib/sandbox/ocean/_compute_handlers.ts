/**
 * `GET /api/services/computeEnvironments` with the trial values of spec
 * section 8: free jobs only (`fees` null), no network, 10 to 600 seconds,
 * 3 jobs, cpu 6/2/1, ram 8/2/1 GiB, disk 98/10/0 GiB.
 *
 * @module
 */

import { json, type OceanState } from "./_state.ts";

/** The id of the sandbox's one environment, `<cluster hash>-<environment hash>`. */
export const SANDBOX_ENVIRONMENT_ID =
  "0c1a6d1b5e0b4f3f8a7c2e9d6b5a4c3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c" +
  "-" + "7e2f9c0a1b3d5e7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f";

/** `GET /api/services/computeEnvironments?chainId=`. */
export function handleEnvironments(url: URL, state: OceanState): Response {
  const chainId = url.searchParams.get("chainId");
  if (chainId !== null && chainId !== "11155111") return json([]);
  return json([{
    id: SANDBOX_ENVIRONMENT_ID,
    description: "Free trial environment: CPU only, no network, results kept for a week",
    consumerAddress: "0x7A1c0B3C7b0c8C7a5c6E8d3F2b1a0C9d8E7f6A5b",
    runningJobs: 0,
    runningfreeJobs: 0,
    queuedJobs: 0,
    queuedFreeJobs: 0,
    enableNetwork: false,
    fees: null,
    access: { addresses: [], accessLists: null },
    resources: [
      { id: "cpu", type: "cpu", kind: "cpu", total: 6, max: 6, min: 1, inUse: 0 },
      { id: "ram", type: "ram", kind: "ram", total: 8, max: 8, min: 1, inUse: 0 },
      { id: "disk", type: "disk", kind: "disk", total: 98, max: 98, min: 0, inUse: 0 },
    ],
    minJobDuration: 10,
    maxJobDuration: 600,
    storageExpiry: 604800,
    free: {
      access: { addresses: state.freeAllowlist, accessLists: null },
      minJobDuration: 10,
      maxJobDuration: 600,
      maxJobs: 3,
      // Deployed nodes list max and inUse here; total and min come from the environment.
      resources: [
        { id: "cpu", max: 2, min: 1, inUse: 0 },
        { id: "ram", max: 2, min: 1, inUse: 0 },
        { id: "disk", max: 10, inUse: 0 },
      ],
    },
  }]);
}
