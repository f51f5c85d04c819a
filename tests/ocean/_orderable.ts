/**
 * A seeded asset a real node lets be ordered through `initialize`: NFT state
 * 0 or 1 (ocean-node's check, see `initializeRefusal` in the sandbox) and an
 * access service (a compute service is ordered through initializeCompute).
 */

import type { Ddo } from "../../lib/ocean/ddo.ts";

/** The first asset that passes `also` and can be ordered for download, with its access service. */
export function orderableAccess(
  ddos: readonly Ddo[],
  also: (ddo: Ddo) => boolean = () => true,
): { ddo: Ddo; serviceId: string; serviceIndex: number } {
  for (const ddo of ddos) {
    const state = ddo.indexedMetadata?.nft?.state ?? 0;
    const serviceIndex = ddo.services.findIndex((s) => s.type === "access");
    if (state <= 1 && serviceIndex >= 0 && also(ddo)) {
      return { ddo, serviceId: ddo.services[serviceIndex].id, serviceIndex };
    }
  }
  throw new Error("No orderable asset with an access service among the seeded ones");
}
