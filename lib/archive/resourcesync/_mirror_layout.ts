/**
 * Where a mirrored resource goes in the mirror's folder: the path of its
 * URL, each segment made safe by the one sanitiser, so nothing a source
 * lists can name a file outside the folder, and the folders on the way are
 * made only as real folders (never through a link).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { safeFileName } from "../../fs/safe_file_name.ts";
import { MirrorFileError } from "./mirror_error.ts";

/** Bytes a tag (`~` and 8 hex digits) adds to a name the sanitiser changed. */
const TAG_BYTES = 9;
/** The most bytes of a tagged name: the sanitiser's limit, so the temporary name still fits. */
const MAX_TAGGED_BYTES = 240;

/** A tag as {@linkcode safeSegment} writes it: a name that has one is never left untagged. */
const TAG_LIKE = /~[0-9a-f]{8}/i;
/** A temporary name (`.<name>.<8 hex digits>.part`): a stopped run's, removed by the next. */
const TEMPORARY_LIKE = /^\..+\.[0-9a-f]{8}\.part$/i;

/**
 * The path below the mirror's folder of a resource, `/`-separated: the
 * URL's path for the source's own host, under a folder named for the host
 * otherwise (`~host`, only reached when the caller allowed other hosts). The
 * mapping is one to one: a segment whose name is not exactly its text in
 * the URL (decoded from `%41`, changed by the sanitiser: a `%2F`, a control
 * character, 300 bytes, a query), and a name that could be taken for such
 * (one with a `~` and 8 hex digits, or starting with `~`) or for a
 * temporary file (`.a.txt.0123abcd.part`), gets `~` and 8
 * hex digits of the original text's SHA-256, so two locations never share a
 * name by being decoded, cut or escaped alike.
 *
 * @param loc The resource's `loc`.
 * @param sourceHost The host (and port) of the source.
 * @returns The relative path.
 */
export function mirrorPath(loc: string, sourceHost: string): string {
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    throw new MirrorFileError(loc, "its location is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new MirrorFileError(loc, `its location is not http or https (${url.protocol})`);
  }
  // The URL parser has resolved dot segments (`..`, `%2e%2e`, `.%2E`) within the host's
  // root; an escaped slash (`..%2F`) is one segment, made safe below.
  const segments = url.pathname.split("/").slice(1);
  if (url.search) segments[segments.length - 1] += url.search;
  const path = segments.map((segment, i) => safeSegment(segment, i === segments.length - 1));
  if (url.host === sourceHost) return path.join("/");
  // Tagged from a text no segment has (a segment holds no `/`): no path of the source's own is it.
  const hostFolder = tagged(safeFileName(`~${url.host}`, "_"), `//${url.host}`, false);
  return [hostFolder, ...path].join("/");
}

/** One segment made safe; one whose name is not its exact text is tagged with a digest of it. */
function safeSegment(raw: string, last: boolean): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Malformed percent-encoding is kept as written, then sanitised.
  }
  const safe = safeFileName(decoded, last ? "index" : "_");
  const exact = safe === decoded && asWritten(decoded) === raw;
  const mistakable = safe.startsWith("~") || TAG_LIKE.test(safe) || TEMPORARY_LIKE.test(safe);
  if (exact && !mistakable) return safe;
  return tagged(safe, raw);
}

/** A name as the URL parser writes it as one segment of a path (`a b` as `a%20b`). */
function asWritten(name: string): string {
  try {
    return new URL(`http://h/${name}`).pathname.slice(1);
  } catch {
    return "";
  }
}

/** A name with `~` and 8 hex digits of the SHA-256 of `original`, before its extension if any. */
function tagged(safe: string, original: string, hasExtension = true): string {
  const tag = `~${createHash("sha256").update(original).digest("hex").slice(0, 8)}`;
  const dot = hasExtension ? safe.lastIndexOf(".") : -1;
  const extension = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : "";
  const stem = cutToBytes(
    extension ? safe.slice(0, dot) : safe,
    MAX_TAGGED_BYTES - TAG_BYTES - byteLength(extension),
  );
  return `${stem}${tag}${extension}`;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** The first `max` UTF-8 bytes of a text, cut between characters. */
function cutToBytes(text: string, max: number): string {
  if (byteLength(text) <= max) return text;
  let out = "";
  let bytes = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (bytes + size > max) break;
    out += char;
    bytes += size;
  }
  return out;
}

/**
 * Makes the folders of a relative path below `root`, one at a time: a
 * segment that exists must be a real folder, not a link (a link could lead
 * out of the folder) nor a file.
 *
 * @param root The mirror's folder (absolute).
 * @param relative The file's path below it.
 * @param made Folders already checked in this run.
 * @param loc The resource, for the error.
 */
export async function ensureFolders(
  root: string,
  relative: string,
  made: Set<string>,
  loc: string,
): Promise<void> {
  const folders = relative.split("/").slice(0, -1);
  let path = root;
  for (const folder of folders) {
    path = `${path}/${folder}`;
    if (made.has(path)) continue;
    try {
      const info = await Deno.lstat(path);
      if (info.isSymlink || !info.isDirectory) {
        throw new MirrorFileError(
          loc,
          `${path} is ${info.isSymlink ? "a link" : "a file"}, not a folder tidepool made`,
          { path: relative },
        );
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      await Deno.mkdir(path).catch((made) => {
        if (!(made instanceof Deno.errors.AlreadyExists)) throw made;
      });
      // Made by another download at the same moment: checked again as any other.
      const info = await Deno.lstat(path);
      if (info.isSymlink || !info.isDirectory) {
        throw new MirrorFileError(loc, `${path} is not a folder`, { path: relative });
      }
    }
    made.add(path);
  }
}

/**
 * Whether every folder on the way to a relative path below `root` is a real
 * folder (no link, no file): a file reached through a link is outside the
 * mirror's folder, whatever it holds.
 *
 * @param root The mirror's folder (absolute).
 * @param relative The file's path below it.
 * @returns False when a folder on the way is a link or a file (a missing one leads nowhere).
 */
export async function realFoldersTo(root: string, relative: string): Promise<boolean> {
  let path = root;
  for (const folder of relative.split("/").slice(0, -1)) {
    path = `${path}/${folder}`;
    const info = await Deno.lstat(path).catch(() => undefined);
    if (!info) return true; // nothing there, and nothing through a link
    if (info.isSymlink || !info.isDirectory) return false;
  }
  return true;
}
