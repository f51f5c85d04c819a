/**
 * Reading a file a bundle names, when the bundle may be hostile: the name
 * must be a plain file name inside the bundle folder (no `..`, no absolute
 * path, no subfolder, no malformed escape, no control character), the file
 * a regular file (never a symbolic link, a device or a FIFO, checked
 * without opening it), and its size known before a byte is read, so no
 * declared or real size decides how much is held in memory.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** A name a bundle may hold, or why it may not (a predicate: `it ${refused}`). */
export type BundleName = { readonly name: string } | { readonly refused: string };

/**
 * The file name an RO-Crate `@id` or a Data Package `path` names inside a
 * bundle folder, or why it names none.
 *
 * @param id The `@id` (percent-encoded) or the path (plain, `encoded: false`).
 * @param encoded Whether the text is percent-encoded (an RO-Crate `@id`).
 * @returns The plain file name, or the reason it is refused.
 */
export function bundleName(id: unknown, encoded = true): BundleName {
  if (typeof id !== "string" || id === "") return { refused: "names no file" };
  let name = id;
  if (encoded) {
    try {
      name = decodeURIComponent(id);
    } catch {
      return { refused: "has malformed percent-encoding, so it names no file" };
    }
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return { refused: "holds a control character, which no file of a bundle has" };
  }
  if (name.startsWith("/") || /^[A-Za-z]:[\\/]/.test(name)) {
    return { refused: "is an absolute path: verify reads only files inside the bundle" };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(name)) {
    return { refused: "is an address, not a file inside the bundle" };
  }
  if (name.split(/[\\/]/).some((part) => part === "..")) {
    return { refused: "climbs out of the bundle (..): verify reads only files inside it" };
  }
  if (/[\\/]/.test(name) || name === ".") {
    return { refused: "is not a plain file name: a bundle has no subfolders" };
  }
  return { name };
}

/** What was found at a bundle's file name, before or instead of reading it. */
export type FileState =
  | { readonly kind: "file"; readonly bytes: number }
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: string };

/**
 * What is at a name in the folder, from `lstat` (nothing is opened, so a
 * FIFO cannot block and a link is never followed).
 *
 * @param dir The bundle folder.
 * @param name A plain file name (see {@linkcode bundleName}).
 * @returns A regular file and its size, missing, or why it is not read.
 */
export async function fileState(dir: string, name: string): Promise<FileState> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(`${dir}/${name}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { kind: "missing" };
    }
    return { kind: "refused", problem: `cannot be read: ${(error as Error).message}` };
  }
  if (info.isSymlink) {
    return {
      kind: "refused",
      problem: "a symbolic link: verify reads only regular files inside the bundle",
    };
  }
  if (info.isDirectory) return { kind: "refused", problem: "a folder: a bundle has no subfolders" };
  if (!info.isFile) {
    return {
      kind: "refused",
      problem: "not a regular file (a device, FIFO or socket): verify does not open it",
    };
  }
  return { kind: "file", bytes: info.size };
}

/**
 * Reads a regular file of known size, never more than that size: a file
 * that grows or shrinks while read is refused, not followed.
 *
 * @param path The file.
 * @param bytes Its size from {@linkcode fileState}.
 * @param room Where the bytes from offset `filled` go (the whole file's buffer, or one reused).
 * @param take Receives each piece read, a view of `room`'s buffer.
 */
async function readBounded(
  path: string,
  bytes: number,
  room: (filled: number) => Uint8Array<ArrayBuffer>,
  take: (piece: Uint8Array<ArrayBuffer>) => void = () => {},
): Promise<void> {
  using file = await Deno.open(path, { read: true });
  let filled = 0;
  while (filled < bytes) {
    const space = room(filled);
    const read = await file.read(space.subarray(0, Math.min(space.length, bytes - filled)));
    if (read === null) throw new Error(`it shrank to ${filled} bytes while read`);
    take(space.subarray(0, read));
    filled += read;
  }
  const more = await file.read(new Uint8Array(1));
  if (more !== null && more > 0) throw new Error(`it grew past ${bytes} bytes while read`);
}

/**
 * Reads a regular file of known size whole, never more than that size: a
 * file that grows while read is refused, not followed.
 *
 * @param path The file.
 * @param bytes Its size from {@linkcode fileState}.
 * @returns Its bytes.
 */
export async function readKnownSize(path: string, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const whole = new Uint8Array(bytes);
  await readBounded(path, bytes, (filled) => whole.subarray(filled));
  return whole;
}

/** The most bytes of a file held at once while it is hashed. */
const HASH_CHUNK = 1024 * 1024;

/**
 * A file's size and SHA-256, read as {@linkcode readKnownSize} reads it but
 * streamed: a bundle file of several gigabytes costs a megabyte of memory,
 * not its size.
 *
 * @param path The file.
 * @param bytes Its size from {@linkcode fileState}.
 * @returns The size and the SHA-256 in lowercase hex.
 */
export async function hashKnownSize(
  path: string,
  bytes: number,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  const buffer = new Uint8Array(Math.max(1, Math.min(bytes, HASH_CHUNK)));
  await readBounded(path, bytes, () => buffer, (piece) => hash.update(piece));
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * The text of a small metadata file of the bundle, read only when it is a
 * regular file no larger than `limit`.
 *
 * @param dir The bundle folder.
 * @param name The file's plain name.
 * @param limit The most bytes accepted.
 * @returns The text, `missing`, or why it is not read.
 */
export async function readSmallText(
  dir: string,
  name: string,
  limit: number,
): Promise<{ text: string } | { missing: true } | { problem: string }> {
  const state = await fileState(dir, name);
  if (state.kind === "missing") return { missing: true };
  if (state.kind === "refused") return { problem: state.problem };
  if (state.bytes > limit) {
    return {
      problem: `${state.bytes} bytes, more than the ${limit} a bundle's ${name} may have`,
    };
  }
  try {
    return { text: new TextDecoder().decode(await readKnownSize(`${dir}/${name}`, state.bytes)) };
  } catch (error) {
    return { problem: `cannot be read: ${(error as Error).message}` };
  }
}
