/**
 * What the one-function files behind {@linkcode Archive} share: the HTTP
 * client, the account and database, the API key, and the paths learnt from
 * service-switch redirects. Also the one place that sends a request, so key
 * handling, redirects and error mapping are done once.
 *
 * @module
 */

import { siteOf, unknownDatabase } from "./_database_typo.ts";
import type { HttpRequest, HttpResponse, HttpStream } from "../http/client.ts";
import type { ArchiveContext } from "./_archive_state.ts";
import {
  AuthError,
  BotChallengeError,
  CacheMissError,
  HttpError,
  httpErrorFields,
  NotFoundError,
  TidepoolError,
} from "../errors/errors.ts";
import { ConflictError, PayloadTooLargeError, QuotaError } from "./errors.ts";

export type { ArchiveContext, AuthMode, MovedPath } from "./_archive_state.ts";

/** One archive request: an HttpRequest plus whether it needs the key. */
export interface ArchiveRequest extends HttpRequest {
  /** true: always send the key; false: never; default: the client's policy. */
  auth?: boolean;
  /**
   * The end of the path that stays when a redirect moves it (e.g. `/sparql`),
   * so the learnt move covers the prefix before it; default: the whole path.
   */
  tail?: string;
}

/** Requires the account (and database) a method needs. */
export function requireTarget(
  context: ArchiveContext,
  method: string,
  needDb = true,
): { account: string; db: string } {
  if (!context.account || (needDb && !context.db)) {
    throw new TidepoolError(
      `Cannot call ${method}: the Archive has no ${needDb ? "account and db" : "account"}`,
      {
        hint: 'Pass them to the constructor: new Archive(url, { account: "acme", db: "letters" })',
      },
    );
  }
  return { account: context.account, db: context.db ?? "" };
}

/** Encodes one path segment (a slug, a UUID, an asset id). */
export function segment(value: string): string {
  if (value === "" || value === "." || value === "..") {
    throw new TidepoolError(`Invalid identifier: "${value}"`, { hint: "Give a slug or a UUID" });
  }
  return encodeURIComponent(value);
}

/**
 * Sends a request. Public reads go without the key; with `auth: "auto"` a
 * read that answers 401 or 404 is sent once more with the key, since private
 * data answers 404 to anonymous callers. Requests with the key are marked
 * authenticated: recorded and replayed keyed apart from the same request
 * without it, never by the key, so a replay with another key or none gives
 * the recorded answers (in replay the keyed answer is looked up even
 * without a key). A followed redirect is remembered.
 */
export function send(context: ArchiveContext, request: ArchiveRequest): Promise<HttpResponse> {
  return withKeyPolicy(context, request, (prepared) => context.http.request(prepared));
}

/**
 * Sends a request as {@linkcode send} does, and hands back the body as a
 * stream once the status is good, for a reader that works as the body
 * arrives. Never cached: callers stream only when no cache is in use.
 */
export function sendStreamed(
  context: ArchiveContext,
  request: ArchiveRequest,
): Promise<HttpStream> {
  return withKeyPolicy(context, request, (prepared) => context.http.stream(prepared));
}

/**
 * The key policy of {@linkcode send} around one way of sending, and the
 * memory of a followed redirect.
 */
async function withKeyPolicy<T extends { redirected?: boolean; url: string }>(
  context: ArchiveContext,
  request: ArchiveRequest,
  sendOnce: (request: HttpRequest) => Promise<T>,
): Promise<T> {
  const path = rewrite(context, request.path);
  const wantKey = request.auth ?? (context.auth === "always");
  // In replay nothing is sent: the answer recorded with a key serves a replay without one.
  const replaying = context.http.replaying;
  const keyKnown = context.apiKey !== undefined || replaying;
  if (wantKey && !keyKnown && request.auth === true) {
    throw new AuthError(`An API key is needed: ${request.method ?? "GET"} ${path}`, {
      status: 401,
      method: request.method ?? "GET",
      url: context.http.url(path).toString(),
      hint: 'Pass apiKey: "<public_id>.<secret>" to the Archive constructor',
    });
  }
  const attempt = async (withKey: boolean) => {
    const headers = { ...request.headers };
    if (withKey && context.apiKey !== undefined) {
      headers.authorization = `Bearer ${context.apiKey}`;
    }
    const { auth: _auth, tail: _tail, ...rest } = request;
    const response = await sendOnce({
      ...rest,
      path,
      headers,
      authenticated: rest.authenticated || withKey,
    });
    if (response.redirected) remember(context, path, response.url, request.tail);
    return response;
  };
  const withKey = wantKey && keyKnown && context.auth !== "never";
  try {
    return await attempt(withKey);
  } catch (error) {
    const retry = !withKey && keyKnown && context.auth === "auto" &&
      request.auth !== false && error instanceof HttpError &&
      (error.status === 401 || error.status === 404);
    if (!retry) throw await withDatabaseName(context, path, archiveError(error, withKey));
    try {
      return await attempt(true);
    } catch (second) {
      // A replay without a key whose recording holds no keyed answer: the recorded refusal stands.
      if (second instanceof CacheMissError && context.apiKey === undefined) {
        throw await withDatabaseName(context, path, archiveError(error, false));
      }
      throw await withDatabaseName(context, path, archiveError(second, true));
    }
  }
}

/** A 404 under a database the catalogue does not list becomes the same "did you mean" error everywhere. */
async function withDatabaseName(
  context: ArchiveContext,
  path: string,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof NotFoundError)) return error;
  const site = siteOf(path);
  if (!site) return error;
  return await unknownDatabase(context, site.account, site.db, error) ?? error;
}

/** Applies the moves learnt so far to a path. */
function rewrite(context: ArchiveContext, path: string): string {
  for (let i = context.moved.length - 1; i >= 0; i--) {
    const { from, to } = context.moved[i];
    if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return path;
}

/**
 * Learns a moved prefix from a redirect: the old path and the new path,
 * less the `tail` both end with.
 */
function remember(context: ArchiveContext, requested: string, finalUrl: string, tail = "") {
  const oldPath = requested.split("?")[0];
  const final = new URL(finalUrl);
  if (final.origin !== new URL(context.http.baseUrl).origin) {
    context.http.warn(`The archive redirected ${oldPath} to another host: ${final.origin}`);
    return;
  }
  let from = oldPath;
  let to = final.pathname;
  if (tail && from.endsWith(tail) && to.endsWith(tail)) {
    from = from.slice(0, -tail.length);
    to = to.slice(0, -tail.length);
  }
  if (from === to || context.moved.some((m) => m.from === from && m.to === to)) return;
  context.moved.push({ from, to });
  context.http.warn(
    `The archive moved ${from} to ${to} (a service switch answered 307); later requests use the new path`,
  );
}

/** Turns an HttpError into the archive's typed error for its status. */
export function archiveError(error: unknown, withKey: boolean): unknown {
  // A bot challenge says nothing about the key: it passes as it is.
  if (!(error instanceof HttpError) || error instanceof BotChallengeError) return error;
  const said = error.serverMessage ?? error.body;
  const fields = { ...httpErrorFields(error), details: said || undefined };
  const where = `${error.method} ${error.url}`;
  switch (error.status) {
    case 401:
      return new AuthError(`Not authenticated: ${where} answered 401`, {
        ...fields,
        hint: withKey
          ? "The API key was refused; check that it is current and not revoked"
          : 'This endpoint needs an API key: pass apiKey: "<public_id>.<secret>"',
      });
    case 402:
      return new QuotaError(`Quota exceeded: ${where} answered 402`, {
        ...fields,
        hint: "The account's quota is used up; wait for it to renew or raise the plan",
      });
    case 403:
      return new AuthError(`Not permitted: ${where} answered 403`, {
        ...fields,
        hint: "The key lacks the scope for this request (read, write, or admin for scope=all)",
      });
    case 404:
      return new NotFoundError(`Not found, or private: ${where} answered 404`, {
        ...fields,
        hint: withKey
          ? "Check the account, database and identifier; the key may also belong to another account"
          : "Check the account, database and identifier; it may be private, so pass an apiKey with read scope",
      });
    case 409:
      return new ConflictError(`Conflict: ${where} answered 409`, {
        ...fields,
        hint: "Something with this identity exists already (a duplicate slug); choose another slug",
      });
    case 413:
      return new PayloadTooLargeError(`Request too large: ${where} answered 413`, {
        ...fields,
        hint: "Send a smaller body or file",
      });
    default:
      return error;
  }
}
