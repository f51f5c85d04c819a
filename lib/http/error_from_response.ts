/**
 * Turning an HTTP answer that is not a success into the typed error for its
 * status, with what the server said.
 *
 * @module
 */

import type { HttpResponse } from "./response.ts";
import { AuthError, BotChallengeError, HttpError, NotFoundError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";

/**
 * The message a server put in its error body: a JSON string (Ocean compute
 * errors), an `{error}` or `{message}` object (archive platform), or
 * undefined for other bodies.
 */
export function serverMessage(body: string): string | undefined {
  const trimmed = body.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith('"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === "string") return parsed;
    if (parsed && typeof parsed === "object") {
      const record = parsed as Record<string, unknown>;
      for (const key of ["error", "message", "detail"]) {
        const value = record[key];
        if (typeof value === "string") return value;
        if (value && typeof value === "object" && "message" in value) {
          return String((value as { message: unknown }).message);
        }
      }
    }
  } catch {
    // not JSON after all; the raw text is used
  }
  return undefined;
}

const CHALLENGE_PAGE =
  /cf-chl|challenge-platform|Just a moment\.\.\.|Attention Required|cf_chl_opt/i;

/**
 * Whether an answer is a bot-protection challenge: 403 (or 503) with
 * `cf-mitigated: challenge`, or an HTML challenge page.
 */
export function isChallenge(response: HttpResponse): boolean {
  if (response.status !== 403 && response.status !== 503) return false;
  if (response.headers.get("cf-mitigated") === "challenge") return true;
  const contentType = response.headers.get("content-type") ?? "";
  return contentType.includes("html") && CHALLENGE_PAGE.test(response.text());
}

/** Turns a non-2xx answer into the typed error for its status. */
export function errorFromResponse(method: string, response: HttpResponse): HttpError {
  const status = response.status;
  const url = redact(response.url);
  const body = response.text();
  if (isChallenge(response)) return new BotChallengeError({ method, url, status, body });
  const message = serverMessage(body);
  const fields = { status, method, url, body, serverMessage: message };
  const said = message ?? body.trim();
  const summary = `${method} ${url} answered ${status}${said ? "" : " with an empty body"}`;
  if (status === 404) {
    return new NotFoundError(`Not found: ${summary}`, {
      ...fields,
      hint: "Check the identifier; a private record also answers 404 without credentials",
    });
  }
  if (status === 401 || status === 403) {
    return new AuthError(
      `${status === 401 ? "Not authenticated" : "Not permitted"}: ${summary}`,
      {
        ...fields,
        hint: status === 401
          ? "Check the credentials: the key, the signature and the nonce"
          : "The credentials are valid but lack the permission or scope for this request",
      },
    );
  }
  if (status === 429) {
    return new HttpError(`Rate limited: ${summary}`, {
      ...fields,
      hint: "Slow down: raise minIntervalMs or lower concurrency in the client options",
    });
  }
  if (status === 413) {
    return new HttpError(`Request too large: ${summary}`, {
      ...fields,
      hint: "Send a smaller body",
    });
  }
  return new HttpError(`Request failed: ${summary}`, {
    ...fields,
    hint: status >= 500
      ? "The service failed; try again later, or report it to the operator with the URL"
      : "Check the request parameters against the service documentation",
  });
}
