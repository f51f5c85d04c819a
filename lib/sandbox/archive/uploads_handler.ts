/**
 * The image pipeline of the sandbox: POST /{account}/{db}/api/uploads
 * issues a presigned PUT URL (`derivative: "ptif"` enters the pipeline);
 * PUT on that URL stores the bytes on disk (413 past the size limit);
 * POST /api/{account}/uploads/{asset}/finalize queues the conversion, which
 * reads the real width and height from the PNG or JPEG header and marks
 * the asset `ready` after a short delay (or `failed`); GET polls it; PATCH
 * sets `is_public` (or the worker's `status`).
 *
 * @module
 */

import { body } from "./writes_handler.ts";
import { readRefusal, writeRefusal } from "./_auth.ts";
import { imageSize } from "./_image_size.ts";
import { saveSnapshot } from "./_persist.ts";
import {
  type ArchiveState,
  type Caller,
  type DatabaseIndex,
  errorResponse,
  json,
} from "./_state.ts";
import type { SeedAsset } from "./seed.ts";
import { temporaryPath } from "../../fs/write_file_atomic.ts";

/** Presigned signatures by asset id (never in the snapshot: they expire with the process). */
const signatures = new WeakMap<ArchiveState, Map<string, string>>();

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** How many times each converting asset was polled, to turn through the pending statuses. */
const polls = new WeakMap<SeedAsset, number>();

/**
 * The status a poll reports: a converting asset reports the sandbox's
 * pending statuses in turn (the spec shows only `ready`).
 */
function reportedStatus(state: ArchiveState, asset: SeedAsset): string {
  if (asset.status === "stored") return state.shapes.untiledStatus;
  if (asset.status !== "queued") return asset.status;
  const n = polls.get(asset) ?? 0;
  polls.set(asset, n + 1);
  const pending = state.shapes.pendingStatuses;
  return pending.length === 0 ? "queued" : pending[n % pending.length];
}

function assetJson(state: ArchiveState, asset: SeedAsset): Record<string, unknown> {
  return {
    id: asset.id,
    status: reportedStatus(state, asset),
    is_public: asset.is_public,
    width: asset.status === "ready" ? asset.width : null,
    height: asset.status === "ready" ? asset.height : null,
    iiif: asset.status === "ready"
      ? `${state.origin}/api/${asset.account}/iiif-img/3/${asset.id}`
      : null,
    ...(asset.error ? { error: asset.error } : {}),
    ...state.shapes.extraFields,
  };
}

/** POST /{account}/{db}/api/uploads */
export async function issueUploadHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, index.db.account);
  if (refused) return refused;
  const input = await body(request);
  if (input instanceof Response) return input;
  const size = Number(input.size ?? 0);
  if (size > state.maxUploadBytes) {
    return errorResponse(
      413,
      `Upload too large: ${size} bytes; the limit is ${state.maxUploadBytes}`,
    );
  }
  const asset: SeedAsset = {
    account: index.db.account,
    db: index.db.slug,
    id: `upl-${randomHex(8)}`,
    is_public: input.is_public === true,
    status: "uploading",
    width: 0,
    height: 0,
    derivative: typeof input.derivative === "string" ? input.derivative : undefined,
  };
  state.seed.assets.push(asset);
  const signature = randomHex(16);
  const table = signatures.get(state) ?? new Map();
  signatures.set(state, table);
  table.set(asset.id, signature);
  await saveSnapshot(state);
  const url =
    `${state.origin}/_storage/${asset.account}/${asset.id}?X-Amz-Expires=900&X-Amz-Signature=${signature}`;
  const headers = { "content-type": String(input.content_type ?? "application/octet-stream") };
  // The answer's shape is not shown in the spec: the shapes seed picks one.
  return json(
    state.shapes.uploadAnswer === "url"
      ? { asset_id: asset.id, url, ...state.shapes.extraFields }
      : { id: asset.id, upload_url: url, method: "PUT", headers },
    201,
  );
}

/** PUT /_storage/{account}/{asset}?X-Amz-Signature=...: the presigned target. */
export async function storageHandler(
  state: ArchiveState,
  account: string,
  id: string,
  request: Request,
  url: URL,
): Promise<Response> {
  const asset = state.seed.assets.find((a) => a.account === account && a.id === id);
  const signature = signatures.get(state)?.get(id);
  if (request.method !== "PUT") return errorResponse(405, "The storage accepts PUT only");
  if (!asset || !signature || url.searchParams.get("X-Amz-Signature") !== signature) {
    await request.body?.cancel();
    return errorResponse(403, "SignatureDoesNotMatch");
  }
  const file = `${state.storage.uploads}/${asset.id}`;
  const temporary = temporaryPath(file);
  const out = await Deno.open(temporary, { write: true, createNew: true });
  let size = 0;
  let tooLarge = false;
  let received = false;
  try {
    for await (const chunk of request.body ?? ReadableStream.from([])) {
      size += chunk.length;
      if (size > state.maxUploadBytes) {
        tooLarge = true;
        break;
      }
      let written = 0;
      while (written < chunk.length) written += await out.write(chunk.subarray(written));
    }
    received = true;
  } finally {
    out.close();
    // An upload cut off mid-body leaves no half file in the storage.
    if (!received) await Deno.remove(temporary).catch(() => {});
  }
  if (tooLarge) {
    await Deno.remove(temporary);
    return errorResponse(413, `Upload too large: more than ${state.maxUploadBytes} bytes`);
  }
  // A PUT replaces the object at its key, as S3's does; a rename that fails leaves no half file.
  await Deno.rename(temporary, file).catch(async (error) => {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  });
  asset.file = asset.id;
  asset.size = size;
  // Without a derivative there is no conversion: the file is the asset, and
  // it reports a status the spec does not show (the shapes seed picks it).
  if (!asset.derivative) asset.status = "stored";
  await saveSnapshot(state);
  return new Response(null, { status: 200, headers: { etag: `"${randomHex(8)}"` } });
}

function findAsset(state: ArchiveState, account: string, id: string): SeedAsset | undefined {
  return state.seed.assets.find((a) => a.account === account && a.id === id);
}

/** POST /api/{account}/uploads/{asset}/finalize */
export async function finalizeHandler(
  state: ArchiveState,
  account: string,
  id: string,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, account);
  if (refused) return refused;
  const asset = findAsset(state, account, id);
  if (!asset) return errorResponse(404, `Upload not found: ${id}`);
  if (!asset.file) return errorResponse(409, `Upload ${id} has no file yet: PUT it first`);
  // The spec's finalize enqueues a tiled upload for conversion; one without a
  // derivative has nothing to convert (a strict sandbox says so).
  if (!asset.derivative && state.mode === "strict") {
    return errorResponse(400, `Upload ${id} has no derivative: there is nothing to convert`);
  }
  if (asset.status !== "uploading") return json(assetJson(state, asset));
  asset.status = "queued";
  await saveSnapshot(state);
  if (!Number.isFinite(state.conversionMs)) {
    state.converting.set(asset, undefined); // until finishConversions
    return json(assetJson(state, asset), 202);
  }
  const timer = setTimeout(async () => {
    state.timers.delete(timer);
    await convert(state, asset);
  }, state.conversionMs);
  state.timers.add(timer);
  state.converting.set(asset, timer);
  return json(assetJson(state, asset), 202);
}

/**
 * Ends every conversion under way now, as if its time had come: for a test
 * that decides when an upload becomes ready by an event, not by a clock.
 *
 * @returns How many conversions ended.
 */
export async function finishConversions(state: ArchiveState): Promise<number> {
  const pending = [...state.converting];
  for (const [asset, timer] of pending) {
    if (timer !== undefined) {
      clearTimeout(timer);
      state.timers.delete(timer);
    }
    await convert(state, asset);
  }
  return pending.length;
}

/** The worker: reads the header, sets the size and `ready` (or `failed`). */
async function convert(state: ArchiveState, asset: SeedAsset): Promise<void> {
  if (!state.converting.delete(asset)) return; // already ended by finishConversions
  try {
    const file = await Deno.open(`${state.storage.uploads}/${asset.file}`);
    const head = new Uint8Array(65536);
    const read = (await file.read(head)) ?? 0;
    file.close();
    const size = imageSize(head.subarray(0, read));
    if (size && asset.derivative === "ptif") {
      Object.assign(asset, size, { status: "ready" });
    } else if (!asset.derivative) {
      asset.status = "ready";
    } else {
      Object.assign(asset, { status: "failed", error: "Not a PNG or JPEG image" });
    }
  } catch (error) {
    Object.assign(asset, {
      status: "failed",
      error: `Conversion failed: ${(error as Error).message}`,
    });
  }
  await saveSnapshot(state).catch(() => {});
}

/** GET and PATCH /api/{account}/uploads/{asset} */
export async function assetHandler(
  state: ArchiveState,
  account: string,
  id: string,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = request.method === "PATCH"
    ? writeRefusal(caller, account)
    : readRefusal(caller, account);
  if (refused) return refused;
  const asset = findAsset(state, account, id);
  if (!asset) return errorResponse(404, `Upload not found: ${id}`);
  if (request.method === "PATCH") {
    const input = await request.json().catch(() => undefined);
    if (!input || typeof input !== "object") {
      return errorResponse(400, "The body must be a JSON object");
    }
    if (input.is_public !== undefined) {
      if (typeof input.is_public !== "boolean") {
        return errorResponse(400, "is_public must be a boolean");
      }
      asset.is_public = input.is_public;
    }
    if (input.status === "ready") asset.status = "ready";
    await saveSnapshot(state);
  }
  return json(assetJson(state, asset));
}
