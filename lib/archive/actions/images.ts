/**
 * The archive's images as free functions of the client (viem's actions):
 * IIIF reads and uploads, `upload(archive, file, options)`. `Archive`'s
 * methods of the same names call these; each loads the code that does the
 * work on its first call.
 *
 * @module
 */

import type { PollOptions } from "../../http/poll_until.ts";
import { type ArchiveHandle, contextOf } from "../_archive_handle.ts";
import { checkCall } from "../_option_rules.ts";
import {
  iiifBase,
  type IiifImageOptions,
  iiifImageUrl as imageUrl,
  type IiifInfo,
  iiifInfo as info,
} from "../iiif.ts";
import type { IiifImage, IiifImageFetchOptions } from "../iiif_image.ts";
import type { UploadedAsset, UploadOptions } from "../upload.ts";

/**
 * The IIIF info of an image, as {@linkcode Archive.iiifInfo} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset id.
 * @returns Its size, tiles and profile.
 * @example An image's size
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const { width, height } = await iiifInfo(archive, "img-0001");
 * console.log(width, height);
 * ```
 */
export async function iiifInfo(archive: ArchiveHandle, asset: string): Promise<IiifInfo> {
  return await info(contextOf(archive), asset);
}

/**
 * An image, or a region of it, as {@linkcode Archive.iiifImage} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset id.
 * @param options Region, size, rotation, quality, format, and a `path` to save to.
 * @returns The image's bytes and size.
 * @example A thumbnail
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * const image = await iiifImage(archive, "img-0001", { size: "100,", format: "png" });
 * console.log(image.width, image.height);
 * ```
 */
export async function iiifImage(
  archive: ArchiveHandle,
  asset: string,
  options: IiifImageFetchOptions = {},
): Promise<IiifImage> {
  checkCall("Archive.iiifImage", options);
  return await (await import("../iiif_image.ts")).iiifImage(contextOf(archive), asset, options);
}

/**
 * The IIIF Image API URL of an image, as {@linkcode Archive.iiifImageUrl} gives it.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset id, or its IIIF info.
 * @param options Region, size, rotation, quality, format.
 * @returns The URL; nothing is sent.
 * @example A URL for a web page
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, { account: "shinano", db: "letters", progress: false });
 * console.log(iiifImageUrl(archive, "img-0001", { size: "400,", format: "jpg" }));
 * ```
 */
export function iiifImageUrl(
  archive: ArchiveHandle,
  asset: string | IiifInfo,
  options: IiifImageOptions = {},
): string {
  checkCall("Archive.iiifImageUrl", options);
  const base = typeof asset === "string" ? iiifBase(contextOf(archive), asset) : asset.id;
  return imageUrl(base, options);
}

/**
 * Uploads an image, as {@linkcode Archive.upload} does, by default waiting until it is converted.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param file A path, URL, Blob or bytes.
 * @param options `derivative`, `isPublic`, `wait` and polling.
 * @returns The asset.
 * @example Upload a scan
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const { bytes } = await iiifImage(archive, "img-0001", { size: "40,", format: "png" });
 * const asset = await upload(archive, bytes, { pollMs: 10 });
 * console.log(asset.status);
 * ```
 */
export async function upload(
  archive: ArchiveHandle,
  file: string | URL | Blob | Uint8Array,
  options: UploadOptions = {},
): Promise<UploadedAsset> {
  checkCall("Archive.upload", options);
  return await (await import("../upload.ts")).upload(contextOf(archive), file, options);
}

/**
 * An upload's status now, as {@linkcode Archive.uploadStatus} reads it.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset, or its id.
 * @param options `signal`.
 * @returns The asset as the platform has it.
 * @example While it converts
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const { bytes } = await iiifImage(archive, "img-0001", { size: "40,", format: "png" });
 * const started = await upload(archive, bytes, { wait: false });
 * console.log((await uploadStatus(archive, started)).status);
 * ```
 */
export async function uploadStatus(
  archive: ArchiveHandle,
  asset: string | { id: string },
  options: { signal?: AbortSignal } = {},
): Promise<UploadedAsset> {
  checkCall("Archive.uploadStatus", options);
  return await (await import("../upload.ts")).uploadStatus(contextOf(archive), asset, options);
}

/**
 * Waits until an upload is converted, as {@linkcode Archive.waitForUpload} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset, or its id.
 * @param options Polling interval, timeout, `signal`.
 * @returns The asset once ready.
 * @example Wait for one
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const { bytes } = await iiifImage(archive, "img-0001", { size: "40,", format: "png" });
 * const started = await upload(archive, bytes, { wait: false });
 * console.log((await waitForUpload(archive, started, { pollMs: 10 })).status);
 * ```
 */
export async function waitForUpload(
  archive: ArchiveHandle,
  asset: string | { id: string },
  options: PollOptions = {},
): Promise<UploadedAsset> {
  checkCall("Archive.waitForUpload", options);
  return await (await import("../upload.ts")).waitForUpload(contextOf(archive), asset, options);
}

/**
 * Makes an image public or private, as {@linkcode Archive.setAssetPublic} does.
 *
 * @param archive The client, from `new Archive(url, options)`.
 * @param asset The asset, or its id.
 * @param parameters `isPublic`.
 * @returns The asset as it now is.
 * @example Publish an upload
 * ```ts
 * import { SANDBOX_KEYS, startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * import { Archive } from "../archive.ts";
 * await using sandbox = await startArchiveSandbox();
 * const archive = new Archive(sandbox.url, {
 *   account: "shinano", db: "letters", apiKey: SANDBOX_KEYS.shinanoWrite, progress: false,
 * });
 * const { bytes } = await iiifImage(archive, "img-0001", { size: "40,", format: "png" });
 * const asset = await upload(archive, bytes, { pollMs: 10 });
 * console.log((await setAssetPublic(archive, asset, { isPublic: true })).isPublic);
 * ```
 */
export async function setAssetPublic(
  archive: ArchiveHandle,
  asset: string | { id: string },
  { isPublic }: { isPublic: boolean },
): Promise<UploadedAsset> {
  return await (await import("../set_asset_public.ts")).setAssetPublic(
    contextOf(archive),
    asset,
    isPublic,
  );
}
