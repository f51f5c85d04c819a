/**
 * The typed errors of the archive platform that the shared hierarchy does
 * not already have: quota (402), conflict (409) and payload too large (413).
 * 401 and 403 are {@linkcode AuthError}, 404 is {@linkcode NotFoundError}.
 *
 * @module
 */

import { HttpError } from "../errors/errors.ts";

/**
 * The account's quota is used up (HTTP 402).
 *
 * @example Telling a quota error apart
 * ```ts
 * const error = new QuotaError("Quota exceeded", { status: 402, method: "GET", url: "https://a.example/" });
 * console.log(error.status);
 * ```
 */
export class QuotaError extends HttpError {
  /** The error kind, `"QuotaError"`, as shown in messages and stack traces. */
  override name = "QuotaError";
}

/**
 * The request conflicts with what exists, such as a duplicate slug (HTTP 409).
 *
 * @example Telling a conflict apart
 * ```ts
 * const error = new ConflictError("Duplicate slug", { status: 409, method: "POST", url: "https://a.example/" });
 * console.log(error.status);
 * ```
 */
export class ConflictError extends HttpError {
  /** The error kind, `"ConflictError"`, as shown in messages and stack traces. */
  override name = "ConflictError";
}

/**
 * The request body is larger than the service accepts (HTTP 413).
 *
 * @example Telling an oversized upload apart
 * ```ts
 * const error = new PayloadTooLargeError("Too large", { status: 413, method: "PUT", url: "https://a.example/" });
 * console.log(error.status);
 * ```
 */
export class PayloadTooLargeError extends HttpError {
  /** The error kind, `"PayloadTooLargeError"`, as shown in messages and stack traces. */
  override name = "PayloadTooLargeError";
}
