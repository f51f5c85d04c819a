/**
 * Data of a shape tidepool does not know: a warning by default, an error
 * for pipelines that must not pass it silently (`strict: true`).
 *
 * @module
 */

import { ProtocolError } from "../errors/errors.ts";

/** The per-call option that turns warnings about unknown shapes into errors. */
export interface StrictOption {
  /**
   * Throw a `ProtocolError` with code `unknownShape` where tidepool would
   * otherwise warn that a server sent something of a shape it does not know
   * (and read what it could). Default false.
   */
  strict?: boolean;
}

/** What {@linkcode reportUnknownShape} reports, and whether it throws. */
export interface UnknownShapeReport {
  /** Throw a `ProtocolError` instead of warning. */
  strict?: boolean;
  /** What was read, and as what. */
  message: string;
  /** An excerpt of the data, for the error's details. */
  details?: string;
}

/**
 * Reports an unknown shape: a warning, or with `strict` a `ProtocolError`
 * (code `unknownShape`) carrying the same message.
 *
 * @param reporter Where warnings go (an `HttpClient`).
 * @param report `message` (what was not understood, and what tidepool did
 *   with it), `details` (what the server sent), `strict` (throw instead).
 * @throws {ProtocolError} With code `unknownShape` when `strict` is true.
 *
 * @example A warning unless strict
 * ```ts
 * import { reportUnknownShape } from "./unknown_shape.ts";
 * const warnings: string[] = [];
 * reportUnknownShape({ warn: (m) => warnings.push(m) }, { strict: false, message: "A DDO of version 9.0.0 was read as 4.x" });
 * console.log(warnings.length); // 1
 * ```
 */
export function reportUnknownShape(
  reporter: { warn(message: string): void },
  { strict, message, details }: UnknownShapeReport,
): void {
  if (strict) {
    throw new ProtocolError(message, {
      code: "unknownShape",
      details,
      hint:
        "The server sent data of a shape tidepool does not know; without strict it is read as far as possible, with a warning",
    });
  }
  reporter.warn(message);
}
