/**
 * How every write is sent: always with the key (a missing key is refused
 * before anything is sent), never retried, never cached, and its errors
 * made specific: 403 names the scope needed, 409 the slug, 413 the size
 * sent. Also the check-before-resend of creates after a network error.
 *
 * @module
 */

import type { HttpResponse } from "../http/client.ts";
import { answersOnly } from "../http/cache_policy.ts";
import {
  AuthError,
  BotChallengeError,
  HttpError,
  httpErrorFields,
  type HttpErrorOptions,
  NetworkError,
  TimeoutError,
} from "../errors/errors.ts";
import { type ArchiveContext, type ArchiveRequest, send } from "./_context.ts";
import { ConflictError, PayloadTooLargeError } from "./errors.ts";

/** What a write is, for its error messages. */
export interface WriteDescription {
  /** What is being done, e.g. `create resource letter-1`. */
  action: string;
  /** The scope it needs; default `write`. */
  scope?: "read" | "write";
  /** The account the write goes to. */
  account?: string;
  /** The slug a 409 is about. */
  slug?: string;
  /** The bytes sent, for a 413. */
  size?: number;
}

/** Sends a write with the key, never retried, with specific errors. */
export async function sendWrite(
  context: ArchiveContext,
  request: ArchiveRequest,
  what: WriteDescription,
): Promise<HttpResponse> {
  if (!context.apiKey) {
    throw new AuthError(`An API key is needed to ${what.action}`, {
      status: 401,
      method: request.method ?? "POST",
      url: context.http.url(request.path).toString(),
      hint: `Pass apiKey: "<public_id>.<secret>" (a key with ${
        what.scope ?? "write"
      } scope) or set TIDEPOOL_ARCHIVE_KEY`,
    });
  }
  try {
    // The answer of a write is recorded, so a replay retraces the session that wrote
    // and a read after it is asked anew while recording; an upload's presigned
    // address is never kept (its operation says so).
    return await send(context, {
      ...request,
      auth: true,
      idempotent: false,
      cachePolicy: request.cachePolicy ?? answersOnly(what.action),
    });
  } catch (error) {
    throw writeError(error, what);
  }
}

/** Whether an error means the request may or may not have reached the server. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TimeoutError || error instanceof NetworkError;
}

function writeError(error: unknown, what: WriteDescription): unknown {
  // A bot challenge says nothing about the key: it passes as it is.
  if (!(error instanceof HttpError) || error instanceof BotChallengeError) return error;
  const fields = httpErrorFields(error);
  const scope = what.scope ?? "write";
  const account = what.account ? ` on account ${what.account}` : "";
  switch (error.status) {
    case 403:
      return new AuthError(
        `Not permitted to ${what.action}: it needs a key with ${scope} scope${account}`,
        {
          ...fields,
          hint:
            `Use a key of the owning account with ${scope} scope; a key of another account or a read-only key is refused`,
        },
      );
    case 409:
      return new ConflictError(
        `Cannot ${what.action}: the slug ${what.slug ?? "(unknown)"} exists already (409)`,
        { ...fields, hint: "Choose another slug, or update the existing one instead" },
      );
    case 413:
      return new PayloadTooLargeError(
        `Cannot ${what.action}: the server refused ${
          what.size === undefined ? "the body" : `${what.size} bytes`
        } as too large (413)`,
        { ...fields, hint: "Send a smaller file, or split the import into several parts" },
      );
    default:
      return restated(error, `Cannot ${what.action}: ${error.shortMessage}`);
  }
}

/**
 * The JSON of a write's answer, or undefined when the body is empty or not
 * JSON: the spec shows no answer body for most writes, so none is required.
 */
export function answerJson(response: HttpResponse): unknown {
  const text = response.text();
  try {
    return text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The same kind of HTTP error under a new message, rebuilt rather than
 * edited, so `message` and `shortMessage` (what a notebook shows) agree.
 */
function restated(error: HttpError, message: string): HttpError {
  // Every HttpError kind that reaches here takes HttpError's constructor (bot challenges pass earlier).
  const Kind = error.constructor as new (message: string, options: HttpErrorOptions) => HttpError;
  return new Kind(message, {
    ...httpErrorFields(error),
    details: error.details,
    detailsLabel: error.detailsLabel,
    hint: error.hint,
  });
}
