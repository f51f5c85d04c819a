/**
 * The errors a paged read ends with when the service misbehaves or a cap is
 * reached. Each carries a code, so callers tell them apart without reading
 * the message.
 *
 * @module
 */

import { ProtocolError, TidepoolError, type TidepoolErrorOptions } from "../errors/errors.ts";

/** Why a walk stopped: `repeatedPage`, `cursorCycle`, `restartLimit`, `noNewRows`. */
export type PagingErrorCode = "repeatedPage" | "cursorCycle" | "restartLimit" | "noNewRows";

/**
 * A protocol error of paging: the service made a paged read impossible to finish: it repeated a page,
 * named a cursor it had named before, kept failing after restarts, or kept
 * advancing its cursor over pages that brought nothing new.
 *
 * @example Telling a repeated page apart
 * ```ts
 * const error = new PagingError("Paging repeated page 1 at page 2", "repeatedPage");
 * console.log(error.code); // "repeatedPage"
 * ```
 */
export class PagingError extends ProtocolError {
  /** The error kind, `"PagingError"`. */
  override name = "PagingError";
  /** What went wrong. */
  declare readonly code: PagingErrorCode;

  /**
   * Creates the error.
   *
   * @param message What happened.
   * @param code What went wrong.
   * @param options Details, hint and cause.
   */
  constructor(message: string, code: PagingErrorCode, options: TidepoolErrorOptions = {}) {
    super(message, { ...options, code });
  }
}

/**
 * A paged read reached its cap on pages or rows; the hint says how to raise it.
 *
 * @example Reading which cap was reached
 * ```ts
 * const error = new PagingCapError("archive resources", { cap: "maxPages", limit: 10 });
 * console.log(error.cap, error.limit); // "maxPages" 10
 * ```
 */
export class PagingCapError extends TidepoolError {
  /** The error kind, `"PagingCapError"`. */
  override name = "PagingCapError";
  /** The cap reached. */
  readonly cap: "maxPages" | "maxRows";
  /** Its value. */
  readonly limit: number;

  /**
   * Creates the error; the hint names the option that raises the cap.
   *
   * @param label What was read.
   * @param reached `cap`, the cap reached; `limit`, its value; `call`, the
   *   call whose options raise it, e.g. `archive.resources()`.
   */
  constructor(
    label: string,
    { cap, limit, call = "the call" }: {
      cap: "maxPages" | "maxRows";
      limit: number;
      call?: string;
    },
  ) {
    const what = cap === "maxPages" ? "pages" : "rows";
    super(`Stopped ${label} at the cap of ${limit.toLocaleString("en-US")} ${what} (${cap})`, {
      hint: `Pass { ${cap}: ${
        Math.max(limit * 10, 10)
      } } (or Infinity) in the options of ${call} to read more, or narrow the query`,
    });
    this.cap = cap;
    this.limit = limit;
  }
}
