/**
 * GET /api/{account}/iiif-img/3/{asset}/info.json: Image API 3 info (or the
 * version 2 form for assets seeded as legacy); the bare base URI answers
 * 303 to info.json. Private assets answer 404 to other callers.
 *
 * @module
 */

import { type ArchiveState, type Caller, errorResponse, json } from "./_state.ts";
import { encodePng } from "./_png.ts";

/** The limits the sandbox's image service advertises in info.json and enforces. */
const MAX_WIDTH = 1200;
const MAX_AREA = 1_000_000;

/** Answers an image info request. */
export function iiifHandler(
  state: ArchiveState,
  account: string,
  asset: string,
  rest: string[],
  caller: Caller | null,
): Response | Promise<Response> {
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
  if (rest.length === 4 && !found.legacyV2) return imageResponse(found, rest);
  if (rest.join("/") !== "info.json") {
    return errorResponse(404, "Not an image request: {region}/{size}/{rotation}/{quality}.png");
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
    maxWidth: MAX_WIDTH,
    maxArea: MAX_AREA,
    sizes,
    tiles,
  });
}

/**
 * An image request: region `full` or `x,y,w,h`; size `max`, `w,`, `,h`,
 * `w,h` or `!w,h` (no upscaling); rotation 0; quality `default` or `gray`;
 * PNG only. The pixels are a gradient of the region, scaled: real bytes.
 */
async function imageResponse(
  found: { width: number; height: number },
  [region, size, rotation, file]: string[],
): Promise<Response> {
  let rx = 0, ry = 0, rw = found.width, rh = found.height;
  if (region !== "full") {
    const parts = region.split(",").map(Number);
    if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0)) {
      return errorResponse(400, `Unsupported region: ${region}`);
    }
    [rx, ry] = parts;
    rw = Math.min(parts[2], found.width - rx);
    rh = Math.min(parts[3], found.height - ry);
    if (rw <= 0 || rh <= 0) return errorResponse(400, `Region outside the image: ${region}`);
  }
  let w: number, h: number;
  const fit = /^!(\d+),(\d+)$/.exec(size);
  const exact = /^(\d*),(\d*)$/.exec(size);
  if (size === "max") {
    const scale = Math.min(1, MAX_WIDTH / rw, Math.sqrt(MAX_AREA / (rw * rh)));
    [w, h] = [Math.floor(rw * scale), Math.floor(rh * scale)];
  } else if (fit) {
    const scale = Math.min(Number(fit[1]) / rw, Number(fit[2]) / rh);
    [w, h] = [Math.round(rw * scale), Math.round(rh * scale)];
  } else if (exact && (exact[1] || exact[2])) {
    w = exact[1] ? Number(exact[1]) : Math.round(Number(exact[2]) * rw / rh);
    h = exact[2] ? Number(exact[2]) : Math.round(Number(exact[1]) * rh / rw);
  } else {
    return errorResponse(400, `Unsupported size: ${size}`);
  }
  if (w > rw || h > rh) return errorResponse(400, `Upscaling not allowed: ${size}`);
  if (w > MAX_WIDTH || w * h > MAX_AREA || w < 1 || h < 1) {
    return errorResponse(400, `Size ${w},${h} exceeds the limits`);
  }
  if (rotation !== "0") return errorResponse(400, `Unsupported rotation: ${rotation}`);
  if (file !== "default.png" && file !== "gray.png") {
    return errorResponse(400, `Unsupported quality or format: ${file}`);
  }
  const png = await encodePng(w, h, "gray", (x, y) => {
    const fx = rx + (x * rw) / w;
    const fy = ry + (y * rh) / h;
    return Math.floor(255 * (fx / found.width + fy / found.height) / 2);
  });
  return new Response(png as BodyInit, { headers: { "content-type": "image/png" } });
}
