/**
 * Saving a downloaded body: streamed to a temporary file in the target
 * folder, hashed on the way, and given its final name only once complete,
 * under a name made safe, without overwriting anything. On any failure the
 * temporary file is removed, so no partial file is ever left.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, join, resolve } from "node:path";
import { TidepoolError } from "../../errors/errors.ts";
import { temporaryPath } from "../../fs/write_file_atomic.ts";
import { safeFileName } from "../../fs/safe_file_name.ts";
import { discardTemporary, nameNewFile } from "../../fs/name_new_file.ts";

/** A saved file. */
export interface SavedFile {
  /** Path of the file (the folder joined with the safe name). */
  path: string;
  /** The safe name it was saved under. */
  name: string;
  /** Bytes written. */
  bytes: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
}

/** `name`, then `stem-1.ext`, `stem-2.ext`, ... */
function* candidates(name: string): Generator<string> {
  yield name;
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let n = 1; n < 10_000; n++) yield `${stem}-${n}${ext}`;
}

/** Gives the temporary file a final name that exists nowhere yet; never overwrites. */
async function place(temp: string, dir: string, name: string): Promise<string> {
  for (const candidate of candidates(name)) {
    const target = join(dir, candidate);
    if (resolve(target) !== resolve(dir, basename(candidate))) continue;
    if (await nameNewFile(temp, target)) return candidate;
  }
  throw new TidepoolError(`Cannot find a free file name for ${name} in ${dir}`, {
    hint: "Empty the folder or choose another one",
  });
}

/** Options of {@linkcode saveStream}. */
export interface SaveStreamOptions {
  /** The folder (created when missing). */
  dir: string;
  /** The name the server gave (made safe here). */
  filename: unknown;
  /** The name to use when nothing safe is left of it. */
  fallback: string;
  /** Bytes the server promised; an empty body then is an error. */
  expectedBytes?: number;
  /** What is being saved, for messages. */
  what: string;
  /** The download's signal: an abort ends the save with its reason, nothing kept. */
  signal?: AbortSignal;
  /** Checks the complete file before it gets its name; throw to refuse it. */
  verify?: (saved: { bytes: number; sha256: string }) => void;
}

/**
 * Streams a body to a temporary file in `dir` and renames it into place when
 * complete. The body is cancelled when the folder or the file cannot be
 * made, so a failed save never leaves a response open.
 *
 * @param body The body stream (consumed).
 * @param options The folder, the name and the expected size.
 * @returns Where the file went, its size and its SHA-256.
 */
export async function saveStream(
  body: ReadableStream<Uint8Array>,
  options: SaveStreamOptions,
): Promise<SavedFile> {
  const { dir } = options;
  const temp = temporaryPath(join(dir, "tidepool"));
  let file: Deno.FsFile;
  try {
    await Deno.mkdir(dir, { recursive: true });
    file = await Deno.open(temp, { createNew: true, write: true });
  } catch (error) {
    // Nothing will read the body: cancel it, or its connection stays open.
    await body.cancel(error).catch(() => {});
    throw error;
  }
  return await writeInPlace(body, file, temp, options);
}

/** Streams the body into the open temporary file, then names it; removes it on failure. */
async function writeInPlace(
  body: ReadableStream<Uint8Array>,
  opened: Deno.FsFile,
  temp: string,
  options: SaveStreamOptions,
): Promise<SavedFile> {
  const { dir, what } = options;
  const hash = createHash("sha256");
  let bytes = 0;
  let file: Deno.FsFile | undefined = opened;
  try {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        hash.update(value);
        bytes += value.byteLength;
        for (let offset = 0; offset < value.byteLength;) {
          offset += await file.write(value.subarray(offset));
        }
      }
    } catch (error) {
      await reader.cancel().catch(() => {});
      // An abort is the caller's own; a body past its length says so itself.
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof TidepoolError) throw error;
      throw new TidepoolError(`Download of ${what} was interrupted after ${bytes} bytes`, {
        details: error instanceof Error ? error.message : String(error),
        detailsLabel: "The connection said",
        hint: "Nothing was kept; try again",
        cause: error,
      });
    }
    file.close();
    file = undefined;
    if (bytes === 0 && (options.expectedBytes ?? 0) > 0) {
      throw new TidepoolError(
        `Download of ${what} is empty although the node listed ${options.expectedBytes} bytes`,
        { hint: "Nothing was saved; the node may not have the file any more: try again later" },
      );
    }
    const sha256 = hash.digest("hex");
    options.verify?.({ bytes, sha256 });
    const name = await place(temp, dir, safeFileName(options.filename, options.fallback));
    return { path: join(dir, name), name, bytes, sha256 };
  } catch (error) {
    await discardTemporary(file, temp);
    throw error;
  }
}
