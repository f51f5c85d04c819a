/**
 * IIIF Image API 3 image requests: the output size worked out locally from
 * the region and size, checked against the info document's limits
 * (`maxWidth`, `maxHeight`, `maxArea`) before anything is fetched.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { type ArchiveContext, send } from "./_context.ts";
import { type IiifImageOptions, iiifImageUrl, type IiifInfo, iiifInfo } from "./iiif.ts";

/** Options of {@linkcode Archive.iiifImage}: the image request, and where to save it. */
export interface IiifImageFetchOptions extends IiifImageOptions {
  /** Also write the bytes to this file (it appears only when complete). */
  path?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The image an {@linkcode Archive.iiifImage} call fetched. */
export interface IiifImage {
  /** The image bytes. */
  bytes: Uint8Array;
  /** The URL they came from. */
  url: string;
  /** The output width the request asks for. */
  width: number;
  /** The output height the request asks for. */
  height: number;
  /** The content type the server sent. */
  contentType: string | null;
}

/** The region of an image a request covers, in full-size pixels. */
function regionOf(region: string, info: IiifInfo): { w: number; h: number } {
  if (region === "full") return { w: info.width, h: info.height };
  if (region === "square") {
    const side = Math.min(info.width, info.height);
    return { w: side, h: side };
  }
  const pct = region.startsWith("pct:");
  const [x, y, w, h] = region.replace(/^pct:/, "").split(",").map(Number);
  const [px, py, pw, ph] = pct
    ? [x * info.width / 100, y * info.height / 100, w * info.width / 100, h * info.height / 100]
    : [x, y, w, h];
  const width = Math.min(pw, info.width - px);
  const height = Math.min(ph, info.height - py);
  if (!(width > 0 && height > 0)) {
    throw new TidepoolError(`Invalid IIIF region: ${region} lies outside the image`, {
      hint: `The image is ${info.width} × ${info.height} pixels`,
    });
  }
  return { w: Math.round(width), h: Math.round(height) };
}

/**
 * The output size of an image request, as the Image API 3 rules compute it,
 * with the limits of the info document checked.
 *
 * @param info The image's info document.
 * @param options The region and size.
 * @returns The output width and height.
 */
export function iiifOutputSize(
  info: IiifInfo,
  options: Pick<IiifImageOptions, "region" | "size"> = {},
): { width: number; height: number } {
  const region = regionOf(options.region ?? "full", info);
  const size = options.size ?? "max";
  const upscale = size.startsWith("^");
  const spec = size.replace(/^\^/, "");
  const maxWidth = numberOr(info.raw.maxWidth);
  const maxHeight = numberOr(info.raw.maxHeight) ?? maxWidth;
  const maxArea = numberOr(info.raw.maxArea);
  const ratio = region.w / region.h;
  let width: number;
  let height: number;
  if (spec === "max" || spec === "full") {
    width = region.w;
    height = region.h;
    // max means as large as the limits allow.
    const scale = Math.min(
      1,
      maxWidth ? maxWidth / width : 1,
      maxHeight ? maxHeight / height : 1,
      maxArea ? Math.sqrt(maxArea / (width * height)) : 1,
    );
    width = Math.floor(width * scale);
    height = Math.floor(height * scale);
  } else if (spec.startsWith("pct:")) {
    const n = Number(spec.slice(4)) / 100;
    width = Math.round(region.w * n);
    height = Math.round(region.h * n);
  } else if (spec.startsWith("!")) {
    const [w, h] = spec.slice(1).split(",").map(Number);
    const scale = Math.min(w / region.w, h / region.h);
    width = Math.round(region.w * scale);
    height = Math.round(region.h * scale);
  } else {
    const [w, h] = spec.split(",");
    width = w ? Number(w) : Math.round(Number(h) * ratio);
    height = h ? Number(h) : Math.round(Number(w) / ratio);
  }
  const problems: string[] = [];
  if (!upscale && (width > region.w || height > region.h)) {
    problems.push(
      `${width} × ${height} is larger than the region (${region.w} × ${region.h}); ask for ^${spec} to upscale`,
    );
  }
  if (maxWidth && width > maxWidth) problems.push(`width ${width} exceeds maxWidth ${maxWidth}`);
  if (maxHeight && height > maxHeight) {
    problems.push(`height ${height} exceeds maxHeight ${maxHeight}`);
  }
  if (maxArea && width * height > maxArea) {
    problems.push(`area ${width * height} exceeds maxArea ${maxArea}`);
  }
  if (width < 1 || height < 1) problems.push(`${width} × ${height} has no pixels`);
  if (problems.length > 0) {
    throw new TidepoolError(`Cannot request the IIIF image: ${problems.join("; ")}`, {
      hint: `Ask for a smaller size (max gives the largest allowed${
        info.sizes.length
          ? `; preferred sizes: ${info.sizes.map((s) => `${s.width},${s.height}`).join(" ")}`
          : ""
      })`,
    });
  }
  return { width, height };
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" && value > 0 ? value : undefined;
}

/** The body of {@linkcode Archive.iiifImage}, on the archive's shared state; documented there. */
export async function iiifImage(
  context: ArchiveContext,
  asset: string,
  options: IiifImageFetchOptions = {},
): Promise<IiifImage> {
  const info = await iiifInfo(context, asset);
  const { width, height } = iiifOutputSize(info, options);
  const url = iiifImageUrl(info.id, options);
  const response = await send(context, { path: url, signal: options.signal });
  const bytes = response.bytes;
  if (options.path) await writeFileAtomic(options.path, bytes);
  return { bytes, url, width, height, contentType: response.headers.get("content-type") };
}
