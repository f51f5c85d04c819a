/**
 * One resource of a mirror: its content streamed to a temporary file in its
 * folder, hashed on the way, checked against the `length` and digests the
 * list gave, and given its name only then, and only where no file is or
 * where the file is the one tidepool wrote there.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import type { Buffer } from "node:buffer";
import { TidepoolError } from "../../errors/errors.ts";
import { temporaryPath } from "../../fs/write_file_atomic.ts";
import { discardTemporary, nameNewFile } from "../../fs/name_new_file.ts";
import { moveOwnFile } from "../../fs/own_file.ts";
import type { SitemapEntry } from "./_sitemap.ts";
import type { MirrorJournal } from "./_mirror_journal.ts";
import { MirrorFileError } from "./mirror_error.ts";

/** The digests a list may give, by their ResourceSync name, and the hash that computes each. */
const ALGORITHMS: Record<string, string> = {
  "md5": "md5",
  "sha-1": "sha1",
  "sha-256": "sha256",
  "sha-512": "sha512",
};

/** The listed digests tidepool can check (`md5:… sha-256:…`), by algorithm. */
export function listedDigests(hash: string | null): Map<string, string> {
  const digests = new Map<string, string>();
  for (const part of (hash ?? "").split(/\s+/)) {
    const colon = part.indexOf(":");
    const algorithm = part.slice(0, colon).toLowerCase();
    if (colon > 0 && ALGORITHMS[algorithm]) digests.set(algorithm, part.slice(colon + 1));
  }
  return digests;
}

/**
 * Whether a listed digest is this one: hex (as CORE lists MD5s) or base64,
 * plain or URL-safe, padded or not (as the resync library writes them).
 */
function sameDigest(listed: string, digest: Buffer): boolean {
  const base64 = digest.toString("base64");
  const unpadded = (text: string) => text.replace(/=+$/, "");
  const urlSafe = unpadded(base64).replace(/\+/g, "-").replace(/\//g, "_");
  return listed.toLowerCase() === digest.toString("hex") ||
    unpadded(listed) === unpadded(base64) || unpadded(listed) === urlSafe;
}

/** Where and how one resource is saved. */
export interface SaveResource {
  /** The mirror's folder (absolute). */
  root: string;
  /** The file's path below it. */
  path: string;
  /** The listed entry. */
  entry: SitemapEntry;
  /** The files tidepool wrote. */
  journal: MirrorJournal;
  /** What the list says of the resource (`versionOf`), for its claim. */
  version: string;
  /** Ends the save, nothing kept. */
  signal?: AbortSignal;
}

/** A body up to this size is held in memory and written in one go: fewer file operations. */
const HELD_BYTES = 1024 * 1024;

/**
 * Saves a body as the resource's file; on any failure the temporary file is
 * removed and the error names the resource. A body that fits in
 * {@linkcode HELD_BYTES} is checked before anything is written.
 *
 * @returns The bytes written and their SHA-256.
 */
export async function saveResource(
  body: ReadableStream<Uint8Array>,
  save: SaveResource,
): Promise<{ bytes: number; sha256: string }> {
  const { root, path, entry } = save;
  const target = `${root}/${path}`;
  const temporary = temporaryPath(target);
  const listed = listedDigests(entry.hash);
  const hashes = new Map<string, Hash>([["sha-256", createHash("sha256")]]);
  for (const algorithm of listed.keys()) {
    if (!hashes.has(algorithm)) hashes.set(algorithm, createHash(ALGORITHMS[algorithm]));
  }
  let held: Uint8Array[] = [];
  let bytes = 0;
  let file: Deno.FsFile | undefined;
  let streamed = false;
  // Only a temporary file this call made is removed on failure: a name someone else took is not ours.
  let created = false;
  try {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (entry.length !== null && bytes > entry.length) {
          throw new MirrorFileError(
            entry.loc,
            `the server sends more than the ${entry.length} bytes the list gives`,
            { path },
          );
        }
        for (const hash of hashes.values()) hash.update(value);
        if (!file && bytes <= HELD_BYTES) {
          held.push(value);
          continue;
        }
        // Past what is held: to the temporary file from here on.
        if (!file) {
          file = await Deno.open(temporary, { createNew: true, write: true });
          created = true;
        }
        streamed = true;
        for (const chunk of [...held, value]) await writeAll(file, chunk);
        held = [];
      }
    } catch (error) {
      await reader.cancel().catch(() => {});
      if (save.signal?.aborted) throw save.signal.reason;
      throw error;
    }
    file?.close();
    file = undefined;
    if (entry.length !== null && bytes !== entry.length) {
      throw new MirrorFileError(
        entry.loc,
        `the server sent ${bytes} bytes, the list gives ${entry.length}`,
        { path },
      );
    }
    const digests = new Map([...hashes].map(([name, hash]) => [name, hash.digest()]));
    for (const [algorithm, value] of listed) {
      if (!sameDigest(value, digests.get(algorithm)!)) {
        throw new MirrorFileError(
          entry.loc,
          `its ${algorithm} does not match the list (listed ${value}, received ${
            digests.get(algorithm)!.toString("hex")
          })`,
          {
            path,
            hint:
              "Nothing was written for it; the source's list and its content disagree: try again later, or report it to the source",
          },
        );
      }
    }
    const sha256 = digests.get("sha-256")!.toString("hex");
    const claim = { loc: entry.loc, path, sha256, bytes, version: save.version };
    // Claimed on disk before it is named: a stop or a failed line after leaves a file that is ours.
    await save.journal.claim(claim);
    try {
      if (!streamed) {
        // A small file: written and named by synchronous calls, a fraction of a millisecond
        // each, where every asynchronous one waits its turn in the runtime's thread pool.
        try {
          Deno.writeFileSync(temporary, concat(held, bytes), { createNew: true });
        } catch (error) {
          // A write that failed part-way (a full disk) made the file; a name already taken did not.
          created = !(error instanceof Deno.errors.AlreadyExists);
          throw error;
        }
        created = true;
        if (linkedSync(temporary, target)) return { bytes, sha256 };
      }
      await place(temporary, target, save);
    } catch (error) {
      // Never named: the claim is taken back, or a file there (a user's) would pass for ours.
      // A withdrawal that cannot be written stops the run (the journal is failing).
      await save.journal.withdraw(claim);
      throw error;
    }
    return { bytes, sha256 };
  } catch (error) {
    if (created) await discardTemporary(file, temporary);
    throw error;
  }
}

async function writeAll(file: Deno.FsFile, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.byteLength;) {
    offset += await file.write(chunk.subarray(offset));
  }
}

function concat(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Names a small file where none is, as {@linkcode place} does first; false when a name is there. */
function linkedSync(temporary: string, target: string): boolean {
  try {
    Deno.linkSync(temporary, target);
  } catch {
    return false; // taken, or no hard links here: place() sorts it out
  }
  Deno.removeSync(temporary);
  return true;
}

/**
 * Gives the complete file its name: where none is (a hard link fails when
 * one is there, even one that appeared meanwhile), or over the file
 * tidepool wrote there if it still has the SHA-256 tidepool wrote; a file
 * tidepool did not write, or one changed since, is never replaced.
 */
async function place(temporary: string, target: string, save: SaveResource): Promise<void> {
  if (await nameNewFile(temporary, target)) return;
  const { path, entry, journal } = save;
  const existing = await Deno.lstat(target);
  // Written by tidepool, or claimed by a run stopped before it recorded it.
  const ours = journal.digestsAt(path);
  if (ours.size === 0 || !existing.isFile) {
    throw notOurs(entry, path, "is there, and tidepool did not write it");
  }
  if (!ours.has(await fileSha256(target))) {
    throw notOurs(entry, path, "was changed since tidepool wrote it");
  }
  // moveOwnFile refuses a link or a folder put at the name since it was looked at.
  await moveOwnFile(temporary, target);
}

function notOurs(entry: SitemapEntry, path: string, what: string): MirrorFileError {
  return new MirrorFileError(entry.loc, `${path} ${what}`, {
    path,
    hint: "The file was kept as it is; move it away (or delete it) and run the mirror again",
  });
}

/**
 * The SHA-256 of a file on disk, lowercase hex.
 *
 * @param path The file.
 * @returns Its digest.
 */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  // The stream closes the file when it ends.
  for await (const chunk of (await Deno.open(path, { read: true })).readable) hash.update(chunk);
  return hash.digest("hex");
}

/** An error that concerns one resource only: the others go on. */
export function concernsOneResource(error: unknown): boolean {
  if (error instanceof MirrorFileError) return true;
  if (!(error instanceof TidepoolError)) return false;
  const status = (error as { status?: number }).status;
  // A resource gone (404, 410), refused (401, 403), failing on the server (500) after its
  // retries, or the wrong size: the source still serves the others. A host still overloaded
  // (429, 503) once the time budget is spent, or one that cannot be reached, stops the run.
  if (status !== undefined) return status !== 429 && status !== 503;
  return error.name === "ProtocolError" || error.name === "ResponseTooLargeError";
}
