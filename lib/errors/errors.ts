/**
 * The one error hierarchy of tidepool. Every error says what happened (the
 * message), what the server said (`details`, trimmed) and what to do next
 * (`hint`). Text is redacted before it is stored, so no secret can reach a
 * notebook output through an error.
 *
 * @module
 */

import { redact } from "./redact.ts";

/** How much of a server's answer an error keeps. */
export const DETAILS_LIMIT = 400;

/** The fields every tidepool error accepts besides its message. */
export interface TidepoolErrorOptions {
  /** What the server said, trimmed and redacted. */
  details?: string;
  /** What the user can do next. */
  hint?: string;
  /** The underlying error, if any. */
  cause?: unknown;
  /** How the details are introduced; default `Server said` (a local parser's words are not the server's). */
  detailsLabel?: string;
}

/**
 * The root of every error tidepool throws.
 *
 * @example Catching any tidepool error
 * ```ts
 * try {
 *   throw new TidepoolError("Cannot read the page", { hint: "Try again later" });
 * } catch (error) {
 *   if (error instanceof TidepoolError) console.log(error.shortMessage);
 * }
 * ```
 */
export class TidepoolError extends Error {
  /**
   * When true (set by the notebook display inside the Jupyter kernel), the
   * stack of a new error is only its name and message, so a failed cell
   * shows a short readable message instead of a stack dump.
   */
  static compactStacks = false;
  /** The error kind, `"TidepoolError"`, as shown in messages and stack traces. */
  override name = "TidepoolError";
  /** The message without the details and the hint. */
  readonly shortMessage: string;
  /** What the server said, trimmed and redacted. */
  readonly details?: string;
  /** What to do next. */
  readonly hint?: string;
  /** How the details are introduced: `Server said`, or who else said them. */
  readonly detailsLabel: string;

  /**
   * Creates an error whose message joins what happened, what the server said and what to do.
   *
   * @param message What happened, capitalised, without a trailing period.
   * @param options What the server said, what to do next and the cause.
   */
  constructor(message: string, options: TidepoolErrorOptions = {}) {
    const shortMessage = redact(message);
    const details = options.details === undefined
      ? undefined
      : trimDetails(redact(options.details));
    const hint = options.hint === undefined ? undefined : redact(options.hint);
    const detailsLabel = options.detailsLabel ?? "Server said";
    const lines = [shortMessage];
    if (details) lines.push(`${detailsLabel}: ${details}`);
    if (hint) lines.push(`What to do: ${hint}`);
    super(lines.join("\n"), { cause: redactedCause(options.cause) });
    this.shortMessage = shortMessage;
    this.details = details || undefined;
    this.hint = hint;
    this.detailsLabel = detailsLabel;
    if (TidepoolError.compactStacks) {
      Object.defineProperty(this, "stack", {
        get: () => `${this.name}: ${this.message}`,
        configurable: true,
      });
    }
  }
}

/** Options of an {@linkcode HttpError}. */
export interface HttpErrorOptions extends TidepoolErrorOptions {
  /** HTTP status of the answer. */
  status: number;
  /** HTTP method of the request. */
  method: string;
  /** URL of the request, with secrets removed. */
  url: string;
  /** The body text of the answer, trimmed. */
  body?: string;
  /** The message the server put in a JSON string or `{error}` body. */
  serverMessage?: string;
}

/**
 * A request that ended with an HTTP status the caller did not expect.
 *
 * @example Reading the status of a failed request
 * ```ts
 * const error = new HttpError("Request failed", {
 *   status: 500, method: "GET", url: "https://node.example/", body: "boom",
 * });
 * console.log(error.status, error.url);
 * ```
 */
export class HttpError extends TidepoolError {
  /** The error kind, `"HttpError"`, as shown in messages and stack traces. */
  override name = "HttpError";
  /** HTTP status of the answer. */
  readonly status: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** URL of the request, with secrets removed. */
  readonly url: string;
  /** The body text of the answer, trimmed and redacted. */
  readonly body: string;
  /** The message the server put in a JSON string or `{error}` body. */
  readonly serverMessage?: string;

  /**
   * Creates an error from a failed answer; the details default to the server message or the body.
   *
   * @param message What happened.
   * @param options The status, method, URL and body of the answer.
   */
  constructor(message: string, options: HttpErrorOptions) {
    super(message, {
      ...options,
      details: options.details ?? options.serverMessage ?? options.body,
    });
    this.status = options.status;
    this.method = options.method;
    this.url = redact(options.url);
    this.body = trimDetails(redact(options.body ?? ""));
    this.serverMessage = options.serverMessage === undefined
      ? undefined
      : trimDetails(redact(options.serverMessage));
  }
}

/**
 * The fields of an HTTP error, to rethrow it as another kind or with a
 * clearer message while keeping what the server said (and the original as
 * the cause).
 *
 * @param error The error to restate.
 * @returns Its status, method, URL, body and server message, and itself as the cause.
 *
 * @example Restating a 409
 * ```ts
 * const conflict = new HttpError("Request failed", { status: 409, method: "POST", url: "https://a.example/x" });
 * const clearer = new HttpError("Duplicate slug: letter-1", httpErrorFields(conflict));
 * console.log(clearer.status); // 409
 * ```
 */
export function httpErrorFields(error: HttpError): HttpErrorOptions {
  return {
    status: error.status,
    method: error.method,
    url: error.url,
    body: error.body,
    serverMessage: error.serverMessage,
    cause: error,
  };
}

/**
 * The server answered 404: the thing asked for is not there, or not visible
 * to this caller.
 *
 * @example Telling a missing record from other failures
 * ```ts
 * const error: unknown = new NotFoundError("DDO not found", {
 *   status: 404, method: "GET", url: "https://node.example/api/aquarius/assets/ddo/x",
 * });
 * console.log(error instanceof NotFoundError);
 * ```
 */
export class NotFoundError extends HttpError {
  /** The error kind, `"NotFoundError"`, as shown in messages and stack traces. */
  override name = "NotFoundError";
}

/**
 * The server refused the credentials (401) or the permission (403).
 *
 * @example Checking for an authentication failure
 * ```ts
 * const error = new AuthError("Signature refused", {
 *   status: 401, method: "POST", url: "https://node.example/api/services/freeCompute",
 * });
 * console.log(error.status === 401);
 * ```
 */
export class AuthError extends HttpError {
  /** The error kind, `"AuthError"`, as shown in messages and stack traces. */
  override name = "AuthError";
}

/**
 * A bot-protection layer in front of the service blocked this non-browser
 * client (HTTP 403 with `cf-mitigated: challenge`, or a challenge page).
 *
 * @example Recognising a bot challenge
 * ```ts
 * const error = new BotChallengeError({ method: "GET", url: "https://node.example/", status: 403 });
 * console.log(error.hint);
 * ```
 */
export class BotChallengeError extends HttpError {
  /** The error kind, `"BotChallengeError"`, as shown in messages and stack traces. */
  override name = "BotChallengeError";

  /**
   * Creates the error with a message and a hint that explain the block.
   *
   * @param request The method, URL, status and body of the blocked request.
   */
  constructor(
    request: { method: string; url: string; status: number; body?: string },
  ) {
    super(
      `A bot-protection layer blocked this request: ${request.method} ${
        redact(request.url)
      } answered ${request.status} with a challenge meant for browsers`,
      {
        ...request,
        details: "challenge page (cf-mitigated: challenge)",
        hint:
          "Scripts cannot solve the challenge. Ask the operator to allowlist your client or IP, " +
          "use a deployment without bot protection, or replay a cache recorded where access worked " +
          '(cache: { mode: "replay" })',
      },
    );
  }
}

/**
 * A request or a whole operation ran past its time limit.
 *
 * @example Handling a timeout
 * ```ts
 * const error = new TimeoutError("Request timed out after 30000 ms: GET https://node.example/");
 * console.log(error.name);
 * ```
 */
export class TimeoutError extends TidepoolError {
  /** The error kind, `"TimeoutError"`, as shown in messages and stack traces. */
  override name = "TimeoutError";
}

/**
 * The request got no answer: the connection failed, was refused or was cut
 * before a status arrived. A write may or may not have reached the server.
 *
 * @example Telling a lost connection from a refusal
 * ```ts
 * const error = new NetworkError("Cannot reach the service: connection refused (GET https://node.example/)");
 * console.log(error instanceof TidepoolError, error.name); // true NetworkError
 * ```
 */
export class NetworkError extends TidepoolError {
  /** The error kind, `"NetworkError"`, as shown in messages and stack traces. */
  override name = "NetworkError";
}

/**
 * The server answered with success but the body carries an error: GraphQL
 * `errors` with HTTP 200, an OAI-PMH `error` element, a body that does not
 * parse.
 *
 * @example Reading the protocol error code
 * ```ts
 * const error = new ProtocolError("OAI-PMH error badArgument", { code: "badArgument" });
 * console.log(error.code);
 * ```
 */
export class ProtocolError extends TidepoolError {
  /** The error kind, `"ProtocolError"`, as shown in messages and stack traces. */
  override name = "ProtocolError";
  /** The protocol's own error code, where it has one. */
  readonly code?: string;
  /** Every message the server sent. */
  readonly messages: readonly string[];
  /** Partial data that came with the error (GraphQL), if any. */
  readonly data?: unknown;

  /**
   * Creates an error; the details default to the server's messages joined by `; `.
   *
   * @param message What happened.
   * @param options The code, the messages and any partial data.
   */
  constructor(
    message: string,
    options: TidepoolErrorOptions & {
      code?: string;
      messages?: readonly string[];
      data?: unknown;
    } = {},
  ) {
    const messages = (options.messages ?? []).map((m) => redact(m));
    super(message, {
      ...options,
      details: options.details ?? (messages.join("; ") || undefined),
    });
    this.code = options.code;
    this.messages = messages;
    this.data = options.data;
  }
}

/**
 * A response was larger than the configured cap (`maxResponseBytes`).
 *
 * @example Raising the cap after this error
 * ```ts
 * const error = new ResponseTooLargeError({ method: "GET", url: "https://x.example/", limit: 1024 });
 * console.log(error.limit);
 * ```
 */
export class ResponseTooLargeError extends TidepoolError {
  /** The error kind, `"ResponseTooLargeError"`, as shown in messages and stack traces. */
  override name = "ResponseTooLargeError";
  /** The cap in bytes that was exceeded. */
  readonly limit: number;

  /**
   * Creates the error with a hint to raise the cap (`maxResponseBytes` unless told otherwise).
   *
   * @param request The method and URL of the request, the cap in bytes, and how to raise it.
   */
  constructor(request: { method: string; url: string; limit: number; hint?: string }) {
    super(
      `Response is larger than the limit of ${request.limit} bytes: ${request.method} ${
        redact(request.url)
      }`,
      {
        hint: request.hint ??
          "Raise maxResponseBytes in the client options if the answer is expected to be this large",
      },
    );
    this.limit = request.limit;
  }
}

/**
 * A request was not in the record/replay cache while the cache was in
 * `replay` mode.
 *
 * @example Telling a cache miss apart
 * ```ts
 * const error = new CacheMissError("GET", "https://x.example/a", { dir: ".cache/tidepool" });
 * console.log(error.shortMessage);
 * ```
 */
export class CacheMissError extends TidepoolError {
  /** The error kind, `"CacheMissError"`, as shown in messages and stack traces. */
  override name = "CacheMissError";

  /**
   * Creates the error with a hint on recording the request, or on why it cannot be replayed.
   *
   * @param method The method of the request that missed.
   * @param url The URL of the request that missed.
   * @param cache `dir`, the cache folder that was searched; `replayable`,
   *   false for a request that is never stored (signed, a write, a poll);
   *   `operation`, the public call that sent it, when known (`Subgraph.tokens`).
   */
  constructor(
    method: string,
    url: string,
    { dir, replayable = true, operation }: {
      dir: string;
      replayable?: boolean;
      operation?: string;
    },
  ) {
    const by = operation ? ` (sent by ${operation})` : "";
    super(
      replayable
        ? `Request is not in the replay cache at ${dir}: ${method} ${redact(url)}${by}`
        : `Request cannot be replayed: ${method} ${
          redact(url)
        }${by} is signed, a write or a live poll, and replay mode uses no network`,
      {
        hint: replayable
          ? `Run once with cache mode "record" to store it in ${dir}, or check that the code sends the same requests as the recorded run`
          : `Use cache mode "record" (or "off") for code that signs, writes or waits on a service; replay only reads`,
      },
    );
  }
}

/**
 * Another run holds the state a call needs: two cron jobs that overlap, two
 * notebooks mirroring into one folder. The second run changed nothing; it
 * can run again once the first has ended.
 *
 * @example Telling a busy state from a failure
 * ```ts
 * const error = new BusyError("Another mirror is running with the state m.json; this run changed nothing");
 * console.log(error.name); // BusyError
 * ```
 */
export class BusyError extends TidepoolError {
  /** The error kind. */
  override name = "BusyError";
}

/**
 * A value the caller gave that is not one of the service's own, or a choice
 * the caller must make among them, found out after asking the service for
 * its list (an emotion category the expression service does not know, a
 * ResourceSync site the source does not describe). It is the caller's to
 * fix, like an option refused at the door, so the command line exits with
 * its usage code.
 *
 * @example Telling a mistyped value from a failed search
 * ```ts
 * const error = new UnknownValueError('Cannot search expressions: emotion "joy" is not one of the service\'s emotion categories');
 * console.log(error.name); // UnknownValueError
 * ```
 */
export class UnknownValueError extends TidepoolError {
  /** The error kind. */
  override name = "UnknownValueError";
}

/**
 * A cause safe to keep: tidepool errors are redacted already; any other
 * error (a fetch failure names its whole URL, signature included) becomes a
 * plain Error with the same name and a redacted message and stack, its own
 * cause redacted in turn.
 */
function redactedCause(cause: unknown, depth = 0): unknown {
  if (cause === undefined || cause instanceof TidepoolError) return cause;
  if (depth > 4) return undefined;
  if (!(cause instanceof Error)) return redact(String(cause));
  const copy = new Error(redact(cause.message), {
    cause: redactedCause((cause as { cause?: unknown }).cause, depth + 1),
  });
  copy.name = cause.name;
  copy.stack = redact(cause.stack ?? "");
  return copy;
}

/** Trims server text to {@linkcode DETAILS_LIMIT} characters on one line. */
export function trimDetails(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > DETAILS_LIMIT
    ? `${oneLine.slice(0, DETAILS_LIMIT)}… (${oneLine.length} characters)`
    : oneLine;
}
