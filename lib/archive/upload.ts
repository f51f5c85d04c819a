/**
 * The image pipeline: POST uploads (presigned URL), a streamed PUT of the
 * file, finalize, and polling until the asset is ready.
 *
 * @module
 */

import { neverStored } from "../http/cache_policy.ts";
import { ProtocolError, TidepoolError, TimeoutError } from "../errors/errors.ts";
import { registerSecret } from "../errors/redact.ts";
import { type PollOptions, pollUntil } from "../http/poll_until.ts";
import { type ArchiveContext, archiveError, requireTarget, segment, send } from "./_context.ts";
import { sendWrite } from "./_write.ts";

/** An uploaded asset as the poll answers it. */
export interface UploadedAsset {
  /** The asset id. */
  id: string;
  /** `ready` once converted. */
  status: string;
  /** Pixel width (when ready). */
  width: number | null;
  /** Pixel height (when ready). */
  height: number | null;
  /** The IIIF Image API base URI (when ready). */
  iiif: string | null;
  /** Whether the image is public. */
  isPublic: boolean;
}

/**
 * Options of {@linkcode Archive.upload}, with the poll options every wait shares:
 * `timeoutMs` bounds the wait for the conversion (default 10 minutes),
 * `pollMs` is the time between polls (default 1,000), `signal` cancels the
 * upload, the pause and the poll in flight.
 */
export interface UploadOptions extends PollOptions {
  /**
   * `ptif` sends the image through the tiling pipeline (default); `null`
   * keeps the file as it is: the upload ends when the file is stored, with
   * no finalize and no wait, since the spec describes a conversion only for
   * tiled images.
   */
  derivative?: "ptif" | null;
  /** Whether the image is public; default false. */
  isPublic?: boolean;
  /** The content type; default from the file name (png, jpg, jpeg, tif, tiff). */
  contentType?: string;
  /**
   * How long the transfer may go without progress, in ms, before it is cut;
   * default 60,000. A large file on a slow link takes as long as it takes.
   */
  stallMs?: number;
  /**
   * Wait for the conversion (default true). With false, the asset is handed
   * back as it stands after finalize; {@linkcode Archive.waitForUpload} waits later.
   */
  wait?: boolean;
}

/** The raw poll answer: `{status, is_public, width, height, iiif}` in the spec; `id` and `error` when sent. */
interface RawAsset {
  id?: string;
  status: string;
  is_public: boolean;
  width: number | null;
  height: number | null;
  iiif: string | null;
  error?: string;
}

/**
 * Statuses that end the wait as a failure. The spec shows only `ready`, so
 * any other status (named or not) means "not yet" and polling goes on until
 * `ready`, one of these words, or the timeout.
 */
const FAILURE = /fail|error|reject|cancel|abort|invalid/i;
const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  tif: "image/tiff",
  tiff: "image/tiff",
};

/** Turns a poll answer into an {@linkcode UploadedAsset}. */
export function toAsset(raw: RawAsset, id?: string): UploadedAsset {
  return {
    id: raw.id ?? id ?? "",
    status: raw.status,
    width: raw.width ?? null,
    height: raw.height ?? null,
    iiif: raw.iiif ?? null,
    isPublic: raw.is_public,
  };
}

/**
 * Reads the answer to POST uploads, whose shape beyond `derivative` is not
 * shown: the asset id under `id`, `asset`, `asset_id` or `assetId`, the
 * presigned URL under `upload_url`, `uploadUrl`, `url` or `presigned_url`,
 * and optional `headers` to send with the PUT.
 */
function presigned(body: unknown): { id: string; url: string; headers?: Record<string, string> } {
  const record = typeof body === "object" && body !== null ? body as Record<string, unknown> : {};
  const text = (...values: unknown[]) => values.find((v) => typeof v === "string") as string;
  const id = text(record.id, record.asset, record.asset_id, record.assetId);
  const url = text(record.upload_url, record.uploadUrl, record.url, record.presigned_url);
  if (!id || !url || !URL.canParse(url)) {
    throw new ProtocolError("The platform issued an upload in a shape tidepool does not know", {
      details: `fields: ${Object.keys(record).join(", ") || "(none)"}`,
      hint: "Report the platform's answer to POST /{account}/{db}/api/uploads with its field names",
    });
  }
  const headers = typeof record.headers === "object" && record.headers !== null
    ? Object.fromEntries(Object.entries(record.headers).map(([k, v]) => [k, String(v)]))
    : undefined;
  return { id, url, headers };
}

/** The size, name and a fresh stream of a file, without reading it into memory. */
async function source(
  file: string | URL | Blob | Uint8Array,
): Promise<{ size: number; name: string; open: () => Promise<ReadableStream<Uint8Array>> }> {
  if (file instanceof Uint8Array) {
    return {
      size: file.length,
      name: "",
      open: () => Promise.resolve(ReadableStream.from([file])),
    };
  }
  if (file instanceof Blob) {
    const name = file instanceof File ? file.name : "";
    return { size: file.size, name, open: () => Promise.resolve(file.stream()) };
  }
  const path = file instanceof URL ? file : String(file);
  const info = await Deno.stat(path);
  return {
    size: info.size,
    name: String(path).split(/[\\/]/).pop() ?? "",
    open: async () => (await Deno.open(path)).readable,
  };
}

/** The body of {@linkcode Archive.upload}, on the archive's shared state; documented there. */
export async function upload(
  context: ArchiveContext,
  file: string | URL | Blob | Uint8Array,
  options: UploadOptions = {},
): Promise<UploadedAsset> {
  const { account, db } = requireTarget(context, "upload");
  const { size, name, open } = await source(file);
  const derivative = options.derivative === undefined ? "ptif" : options.derivative;
  const contentType = options.contentType ??
    TYPES[name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
  const label = name || `${size} bytes`;
  const issued = presigned(
    (await sendWrite(context, {
      method: "POST",
      path: `/${segment(account)}/${segment(db)}/api/uploads`,
      // The answer holds a presigned address: never kept in a recording.
      cachePolicy: neverStored("upload"),
      json: {
        derivative: derivative ?? undefined,
        is_public: options.isPublic ?? false,
        size,
        content_type: contentType,
        filename: name || undefined,
      },
      signal: options.signal,
    }, { action: `upload ${label}`, account, size })).json<unknown>(),
  );
  const target = new URL(issued.url);
  for (const [key, value] of target.searchParams) {
    if (/signature|credential|token|security/i.test(key)) registerSecret(value);
  }

  const task = context.http.progress(`Uploading ${label} to ${target.host}`, {
    unit: "bytes",
    total: size,
  });
  let sent = 0;
  // The client's per-request timeout would cap the whole transfer; a stall
  // watchdog (re-armed by every chunk, and once more for the answer) cuts
  // only a transfer that stopped moving.
  const stallMs = options.stallMs ?? 60_000;
  const stalled = new AbortController();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let settled = false; // the storage may answer before it has read every chunk
  const arm = () => {
    clearTimeout(watchdog);
    if (settled) return;
    watchdog = setTimeout(() =>
      stalled.abort(
        new TimeoutError(`Upload of ${label} stalled: no progress for ${stallMs} ms`, {
          hint: "The storage stopped taking data; try again, or raise stallMs for a slow link",
        }),
      ), stallMs);
    Deno.unrefTimer(watchdog);
  };
  const counted = (await open()).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        arm();
        sent += chunk.length;
        task.update(sent);
        controller.enqueue(chunk);
      },
      flush: arm,
    }),
  );
  arm();
  try {
    await context.http.request({
      method: "PUT",
      path: issued.url,
      body: counted,
      headers: { "content-type": contentType, ...issued.headers },
      sensitive: true,
      idempotent: false,
      timeoutMs: 24 * 3600_000,
      signal: options.signal ? AbortSignal.any([options.signal, stalled.signal]) : stalled.signal,
    });
    settled = true;
    clearTimeout(watchdog);
    task.finish();
  } catch (error) {
    settled = true;
    clearTimeout(watchdog);
    if (stalled.signal.aborted) {
      task.fail();
      throw stalled.signal.reason;
    }
    task.fail();
    const typed = archiveError(error, false);
    if (typed instanceof Error && "status" in typed && typed.status === 413) {
      throw new TidepoolError(
        `Cannot upload ${label}: the storage refused ${size} bytes as too large (413)`,
        {
          details: (typed as Error & { serverMessage?: string }).serverMessage,
          hint: "Send a smaller file",
          cause: typed,
        },
      );
    }
    throw typed;
  }

  // The spec describes finalize and conversion only for the tiled pipeline
  // (`derivative: "ptif"`): without a derivative the stored file is the
  // asset, so nothing is finalized or waited for (docs/ASSUMPTIONS.md).
  if (derivative === null) return await readStatus(context, account, issued.id, options.signal);
  await sendWrite(context, {
    method: "POST",
    path: `/api/${segment(account)}/uploads/${segment(issued.id)}/finalize`,
    cachePolicy: neverStored("finalize upload"),
    signal: options.signal,
  }, { action: `finalize upload ${issued.id}`, account });
  if (options.wait === false) return await readStatus(context, account, issued.id, options.signal);
  return await poll(context, account, issued.id, options);
}

/** One read of an upload's conversion status. */
async function readStatus(
  context: ArchiveContext,
  account: string,
  id: string,
  signal?: AbortSignal,
): Promise<UploadedAsset> {
  const raw = await readRaw(context, account, id, signal);
  return { ...toAsset(raw, id), status: String(raw.status ?? "(none)") };
}

/** The platform's answer about an upload, as sent. */
async function readRaw(
  context: ArchiveContext,
  account: string,
  id: string,
  signal?: AbortSignal,
): Promise<RawAsset> {
  return (await send(context, {
    path: `/api/${segment(account)}/uploads/${segment(id)}`,
    auth: true,
    cacheable: false,
    signal,
  })).json<RawAsset>();
}

/** The asset id of an id or an asset. */
function assetId(asset: string | { id: string }): string {
  const id = typeof asset === "string" ? asset : asset?.id;
  if (typeof id !== "string" || id === "") {
    throw new TidepoolError("Cannot read the upload: no asset id", {
      hint: "Pass the id archive.upload returned, or the asset itself",
    });
  }
  return id;
}

/** The body of {@linkcode Archive.uploadStatus}, on the archive's shared state; documented there. */
export async function uploadStatus(
  context: ArchiveContext,
  asset: string | { id: string },
  options: { signal?: AbortSignal } = {},
): Promise<UploadedAsset> {
  const { account } = requireTarget(context, "uploadStatus");
  return await readStatus(context, account, assetId(asset), options.signal);
}

/** The body of {@linkcode Archive.waitForUpload}, on the archive's shared state; documented there. */
export async function waitForUpload(
  context: ArchiveContext,
  asset: string | { id: string },
  options: PollOptions = {},
): Promise<UploadedAsset> {
  const { account } = requireTarget(context, "waitForUpload");
  return await poll(context, account, assetId(asset), options);
}

async function poll(
  context: ArchiveContext,
  account: string,
  id: string,
  options: PollOptions,
): Promise<UploadedAsset> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const task = context.http.progress(`Converting ${id}`, { unit: "polls" });
  let polls = 0;
  let status = "";
  try {
    const asset = await pollUntil(async (signal) => {
      const raw = await readRaw(context, account, id, signal);
      status = String(raw.status ?? "(none)");
      task.update(++polls, { detail: status });
      if (status === "ready") return { value: toAsset(raw, id) };
      if (!FAILURE.test(status)) return undefined;
      throw new TidepoolError(`Upload ${id} failed in conversion: its status is ${status}`, {
        details: raw.error ?? JSON.stringify(raw),
        hint: "Check that the file is a PNG, JPEG or TIFF image, then upload it again",
      });
    }, {
      pollMs: options.pollMs ?? 1000,
      timeoutMs,
      signal: options.signal,
      timedOut: () =>
        new TimeoutError(
          `Upload ${id} is not ready after ${timeoutMs} ms: its last status is ${
            status || "(not polled)"
          }`,
          { hint: "Conversion can be slow for large images; poll later with a longer timeoutMs" },
        ),
    });
    task.finish();
    return asset;
  } catch (error) {
    task.fail();
    throw error;
  }
}
