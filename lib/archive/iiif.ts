/**
 * IIIF Image API 3 (and 2) for uploaded images: the info document and image URLs.
 *
 * @module
 */

import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";

/** An image's info document, normalised across Image API 2 and 3. */
export interface IiifInfo {
  /** The image service base URI (`id` in version 3, `@id` in version 2). */
  id: string;
  /** The Image API version the document follows. */
  version: 2 | 3;
  /** Full width in pixels. */
  width: number;
  /** Full height in pixels. */
  height: number;
  /** The compliance profile, e.g. `level2`. */
  profile: string;
  /** Preferred sizes, when given. */
  sizes: { width: number; height: number }[];
  /** Tile sizes and scale factors, when given. */
  tiles: { width: number; height?: number; scaleFactors: number[] }[];
  /** The document as sent. */
  raw: Record<string, unknown>;
}

/** Parameters of an image request (Image API 3 syntax). */
export interface IiifImageOptions {
  /** `full`, `square`, `x,y,w,h` or `pct:x,y,w,h`. Default `full`. */
  region?: string;
  /** `max`, `^max`, `w,`, `,h`, `pct:n`, `w,h`, `!w,h` (each may start with `^`). Default `max`. */
  size?: string;
  /** Degrees clockwise, 0 to 360, optionally mirrored with `!`. Default 0. */
  rotation?: number | string;
  /** `default`, `color`, `gray` or `bitonal`. Default `default`. */
  quality?: "default" | "color" | "gray" | "bitonal";
  /** `jpg`, `png`, `webp`, `tif`, `gif`, `jp2` or `pdf`. Default `jpg`. */
  format?: "jpg" | "png" | "webp" | "tif" | "gif" | "jp2" | "pdf";
}

/** The image service base of an asset on this archive. */
export function iiifBase(context: ArchiveContext, asset: string): string {
  const { account } = requireTarget(context, "iiif", false);
  return `${context.http.baseUrl}/api/${segment(account)}/iiif-img/3/${segment(asset)}`;
}

/** The body of {@linkcode Archive.iiifInfo}, on the archive's shared state; documented there. */
export async function iiifInfo(context: ArchiveContext, asset: string): Promise<IiifInfo> {
  const base = iiifBase(context, asset);
  const response = await send(context, { path: `${base}/info.json` });
  const raw = response.json<Record<string, unknown>>();
  const id = raw.id ?? raw["@id"];
  if (typeof id !== "string" || typeof raw.width !== "number" || typeof raw.height !== "number") {
    throw new ProtocolError(`Image info has no id, width or height: ${response.url}`, {
      details: response.text(),
      hint: "The asset may not be ready yet; poll it until its status is ready",
    });
  }
  const context3 = JSON.stringify(raw["@context"] ?? "").includes("/image/3/");
  const profile = Array.isArray(raw.profile) ? raw.profile[0] : raw.profile;
  return {
    id: id.replace(/\/+$/, ""),
    version: context3 || typeof raw.id === "string" ? 3 : 2,
    width: raw.width,
    height: raw.height,
    profile: String(profile ?? "").replace(/^.*\/(level\d)\.json$/, "$1"),
    sizes: Array.isArray(raw.sizes) ? raw.sizes as IiifInfo["sizes"] : [],
    tiles: Array.isArray(raw.tiles) ? raw.tiles as IiifInfo["tiles"] : [],
    raw,
  };
}

const REGION =
  /^(full|square|\d+,\d+,\d+,\d+|pct:\d+(\.\d+)?,\d+(\.\d+)?,\d+(\.\d+)?,\d+(\.\d+)?)$/;
const SIZE = /^\^?(max|\d+,|,\d+|pct:\d+(\.\d+)?|!?\d+,\d+)$|^full$/;
const QUALITIES = ["default", "color", "gray", "bitonal"];
const FORMATS = ["jpg", "png", "webp", "tif", "gif", "jp2", "pdf"];

/** The body of {@linkcode Archive.iiifImageUrl}, from an image service base URI; documented there. */
export function iiifImageUrl(base: string, options: IiifImageOptions = {}): string {
  const region = options.region ?? "full";
  const size = options.size ?? "max";
  const rotation = String(options.rotation ?? 0);
  const quality = options.quality ?? "default";
  const format = options.format ?? "jpg";
  const fail = (what: string, value: string, expected: string) =>
    new TidepoolError(`Invalid IIIF ${what}: ${value}`, { hint: `Give ${expected}` });
  if (!REGION.test(region)) throw fail("region", region, "full, square, x,y,w,h or pct:x,y,w,h");
  if (!SIZE.test(size)) throw fail("size", size, "max, w,, ,h, pct:n, w,h or !w,h");
  const degrees = Number(rotation.replace(/^!/, ""));
  if (!/^!?\d+(\.\d+)?$/.test(rotation) || degrees > 360) {
    throw fail("rotation", rotation, "a number of degrees from 0 to 360, optionally after !");
  }
  if (!QUALITIES.includes(quality)) throw fail("quality", quality, QUALITIES.join(", "));
  if (!FORMATS.includes(format)) throw fail("format", format, FORMATS.join(", "));
  return `${base.replace(/\/+$/, "")}/${region}/${size}/${rotation}/${quality}.${format}`;
}
