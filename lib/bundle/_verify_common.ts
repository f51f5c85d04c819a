/**
 * What the checks of `verifyBundle` share: the metadata file
 * names, how a problem is reported, how a listed file is read and hashed,
 * and how hostile text is shown.
 *
 * @module
 */

import { fileState, hashKnownSize } from "./_bundle_file.ts";
import { LISTING_LIMIT } from "./_bundle_folder.ts";
import { inlineText } from "../errors/terminal_text.ts";
import type { BundleProblem } from "./verify_types.ts";

export const CRATE = "ro-crate-metadata.json";
export const PACKAGE = "datapackage.json";
/** The most bytes the crate or the data package may have: far above any bundle's, far below memory. */
export const METADATA_LIMIT = 64 * 1024 * 1024;

export type Entity = Record<string, unknown> & { "@id"?: unknown };

export interface FileNow {
  bytes: number;
  sha256: string;
}

export type Found = (path: string, check: BundleProblem["check"], problem: string) => void;

/**
 * A regular file's size and SHA-256, or what keeps it from being hashed:
 * missing, not a regular file, or a size other than the one recorded
 * (compared before a byte is read).
 */
export async function checkedFile(
  dir: string,
  path: string,
  recordedSize: unknown,
  by: string,
): Promise<FileNow | { problem: string; regular?: boolean }> {
  const state = await fileState(dir, path);
  if (state.kind === "missing") return { problem: `missing: ${by} lists it` };
  if (state.kind === "refused") return { problem: state.problem };
  if (recordedSize !== undefined && String(recordedSize) !== String(state.bytes)) {
    return {
      problem: `changed: its size is ${state.bytes} bytes, ${by} recorded ${
        printable(String(recordedSize)).slice(0, 40)
      } (not hashed)`,
      regular: true,
    };
  }
  try {
    return await hashKnownSize(`${dir}/${path}`, state.bytes);
  } catch (error) {
    return { problem: `cannot be read: ${(error as Error).message}` };
  }
}

/** The problem of a listing past {@linkcode LISTING_LIMIT}. */
export function overLimit(count: number, what: string): string {
  return `lists ${count} ${what}, more than the ${LISTING_LIMIT} verify checks: the rest is not checked`;
}

/** Text from a hostile file shown safely: control characters as `\u` escapes, at most 200 characters. */
export function printable(text: string): string {
  const shown = inlineText(text);
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

/** The first 12 digits of a hash, enough to tell two apart in a message. */
export function short(hash: unknown): string {
  return typeof hash === "string"
    ? `${printable(hash.replace(/^sha256:/, "").slice(0, 12))}…`
    : "none";
}
