/**
 * GET /api/{account}/iiif-img/3/{asset}/info.json: Image API 3 info (or the
 * version 2 form for assets seeded as legacy); the bare base URI answers
 * 303 to info.json. Private assets answer 404 to other callers.
 *
 * @module
 */

import { type ArchiveState, type Caller, errorResponse, json } from "./_state.ts";

/** Answers an image info request. */
export function iiifHandler(
  state: ArchiveState,
  account: string,
  asset: string,
  rest: string[],
  caller: Caller | null,
): Response {
  const found = state.seed.assets.find((a) => a.account === account && a.id === asset);
  if (!found || (!found.is_public && caller?.account !== account)) {
    return errorResponse(404, `Image not found: ${asset}`);
  }
  if (found.status !== "ready") {
    return errorResponse(404, `Image not ready: ${asset} is ${found.status}`);
  }
  const base = `${state.origin}/api/${account}/iiif-img/3/${asset}`;
  if (rest.length === 0) {
    return new Response(null, { status: 303, headers: { location: `${base}/info.json` } });
  }
  if (rest.join("/") !== "info.json") {
    return errorResponse(404, "Only info.json is served by the sandbox");
  }
  const tiles = [{ width: 512, height: 512, scaleFactors: [1, 2, 4, 8, 16] }];
  const sizes = [{ width: Math.round(found.width / 8), height: Math.round(found.height / 8) }];
  if (found.legacyV2) {
    return json({
      "@context": "http://iiif.io/api/image/2/context.json",
      "@id": base,
      protocol: "http://iiif.io/api/image",
      width: found.width,
      height: found.height,
      profile: ["http://iiif.io/api/image/2/level2.json"],
      sizes,
      tiles,
    });
  }
  return json({
    "@context": "http://iiif.io/api/image/3/context.json",
    id: base,
    type: "ImageService3",
    protocol: "http://iiif.io/api/image",
    profile: "level2",
    width: found.width,
    height: found.height,
    sizes,
    tiles,
  });
}
