/**
 * The errors of a mirror that keeps files: one resource refused or failed,
 * and a run that finished with some resources not mirrored.
 *
 * @module
 */

import { TidepoolError } from "../../errors/errors.ts";
import { redact } from "../../errors/redact.ts";
import type { MirrorResult } from "./types.ts";

/**
 * One resource a mirror could not keep, and why: a location outside the
 * source or the folder, a digest or length that does not match the list, a
 * file in the folder that tidepool did not write.
 *
 * @example
 * ```ts
 * const error = new MirrorFileError("http://x.example/a", "its MD5 does not match the list", { path: "a" });
 * console.log(error.message); // Cannot mirror http://x.example/a: its MD5 does not match the list
 * ```
 */
export class MirrorFileError extends TidepoolError {
  /** The error kind. */
  override name = "MirrorFileError";
  /** The resource's location as listed (redacted). */
  readonly loc: string;
  /** Its path below the mirror's folder, when one was made. */
  readonly path?: string;

  /**
   * Names the resource and what is wrong with it.
   *
   * @param loc The resource's location.
   * @param reason What is wrong with it.
   * @param more `path`, its path below the folder; `hint`, what to do, when
   *   there is more to say than the default.
   */
  constructor(loc: string, reason: string, { path, hint }: { path?: string; hint?: string } = {}) {
    super(`Cannot mirror ${loc}: ${reason}`, {
      hint: hint ?? "Nothing was written for it; the other resources are mirrored",
    });
    this.loc = redact(loc);
    this.path = path;
  }
}

/**
 * A mirror run that kept every file it could and could not keep some: the
 * state is saved, so the next run asks again only for these.
 *
 * @example
 * ```ts
 * import { startArchiveSandbox } from "../../sandbox/archive/mod.ts";
 * await using sandbox = await startArchiveSandbox();
 * import { ResourceSync } from "./resource_sync.ts";
 * const rs = new ResourceSync(sandbox.url, { site: "shinano/letters", progress: false });
 * const dir = await Deno.makeTempDir();
 * try {
 *   await rs.mirror({ state: `${dir}/mirror.json`, dir: `${dir}/mirror` });
 * } catch (error) {
 *   if (error instanceof MirrorError) console.log(error.failed.map((f) => f.loc));
 * }
 * ```
 */
export class MirrorError extends TidepoolError {
  /** The error kind. */
  override name = "MirrorError";
  /** The resources not mirrored, each with its error. */
  readonly failed: readonly MirrorFileError[];
  /** What the run did (the files it wrote, deleted and kept). */
  readonly result: MirrorResult;

  /**
   * Sums up the resources not mirrored, beside what the run did.
   *
   * @param failed The resources not mirrored.
   * @param result What the run did.
   */
  constructor(failed: readonly MirrorFileError[], result: MirrorResult) {
    const names = failed.slice(0, 5).map((f) => f.path ?? f.loc);
    const more = failed.length > 5 ? `, and ${failed.length - 5} more` : "";
    super(
      `Mirror incomplete: ${failed.length} of ${
        failed.length + result.written.length
      } resources could not be kept: ${names.join(", ")}${more}`,
      {
        details: failed.map((f) => f.shortMessage.replace(/^Cannot mirror /, "")).join("; "),
        detailsLabel: "The resources",
        hint:
          "Every other file was written and recorded; the next run asks only for these again. Fix or move what a reason names first",
      },
    );
    this.failed = failed;
    this.result = result;
  }
}
