/**
 * A request as an adapter describes it, and how the client turns it into
 * what is sent: the absolute URL with its query, the headers, the body, and
 * the text the cache keys it by.
 *
 * @module
 */

import type { CachePolicy } from "./cache_policy.ts";
import type { HttpResponse } from "./response.ts";

/** A value that can stand in a query string; arrays repeat the parameter. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[];

/** One request as an adapter describes it. */
export interface HttpRequest {
  /** HTTP method; default GET. */
  method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A path below the client's base URL (`/api/x`), or an absolute URL. */
  path: string;
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, QueryValue>;
  /** Request headers. */
  headers?: Record<string, string>;
  /**
   * Whether the client's configured headers (its keys: `x-api-key`,
   * `authorization`) go with the request; default true. False for a request
   * to an origin other than the service's (a file its list names on another
   * host): only the user agent and the request's own headers go.
   */
  clientHeaders?: boolean;
  /** A JSON body; sets `content-type: application/json`. */
  json?: unknown;
  /** A raw body; a stream body is never retried or cached. */
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
  /**
   * Whether repeating the request is harmless. Default: true for GET and
   * HEAD. Set it for read-only POST queries (metadata query, GraphQL,
   * SPARQL). Requests that start something are never idempotent.
   */
  idempotent?: boolean;
  /**
   * Whether the request carries a signature, a token or a secret. Sensitive
   * requests are never cached.
   */
  sensitive?: boolean;
  /**
   * Whether the request carries an API key in a header (not a signature or
   * a one-time token): the key stays out of the cache key and every file,
   * so its answer is recorded and replayed like any read, keyed apart from
   * the same request sent without the key, and whoever replays needs no
   * key. The reads' provenance says they were read with a key.
   */
  authenticated?: boolean;
  /** Whether the answer may be cached; default: idempotent and not sensitive. */
  cacheable?: boolean;
  /**
   * The operation's cache policy: which answers are worth replaying. Default:
   * successful (2xx) answers whose JSON, if any, parses.
   */
  cachePolicy?: CachePolicy;
  /** Statuses that are handed back instead of thrown, besides 2xx. */
  acceptStatus?: readonly number[];
  /**
   * Whether a failed answer is final: one a retry would answer the same
   * (a SPARQL server's compile error or query timeout, named by its error
   * code). A final answer is never retried, whatever its status.
   */
  final?: (response: HttpResponse) => boolean;
  /** Time limit of one attempt; defaults to the client's. */
  timeoutMs?: number;
  /** Cancels this request. */
  signal?: AbortSignal;
  /**
   * `manual` hands a redirect back (with `acceptStatus`) instead of
   * following it, for a caller that follows links only within an authority;
   * default `follow`. Streams only.
   */
  redirect?: "follow" | "manual";
  /**
   * Body size cap for this request; defaults to the client's
   * `maxResponseBytes`, and for a stream with no declared length to
   * `DEFAULT_MAX_DOWNLOAD_BYTES` (4 GiB).
   */
  maxBytes?: number;
}

/** A request ready to send: method, URL, headers, body, and what the cache keys it by. */
export interface PreparedRequest {
  method: NonNullable<HttpRequest["method"]>;
  url: URL;
  headers: Record<string, string>;
  body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
  /** The body as the cache keys it, with the accepted format in front. */
  cacheBody: string;
  /** Whether repeating the request is harmless. */
  idempotent: boolean;
}

/**
 * The absolute URL of a path below a base URL (or of an absolute URL), with
 * the query appended; undefined and null values are left out, arrays repeat.
 */
export function requestUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const url = /^[a-z][a-z0-9+.-]*:/i.test(path)
    ? new URL(path)
    : new URL(baseUrl + (path.startsWith("/") ? path : `/${path}`));
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) url.searchParams.append(name, String(item));
  }
  return url;
}

/**
 * A body of bytes as the cache keys it: its text when it is UTF-8 (a byte
 * order mark kept), else every byte in hex. A decoder that replaced bytes
 * that are not UTF-8 (each one U+FFFD) or dropped a leading byte order mark
 * would give two different bodies one key, and the second the first's answer.
 */
function bodyKeyText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return `bytes: ${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  }
}

/** The method, URL, headers and body of a request, and whether repeating it is harmless. */
export function prepareRequest(
  request: HttpRequest,
  baseUrl: string,
  clientHeaders: Record<string, string>,
): PreparedRequest {
  const method = request.method ?? "GET";
  const url = requestUrl(baseUrl, request.path, request.query);
  const idempotent = request.idempotent ?? (method === "GET" || method === "HEAD");
  const configured = request.clientHeaders === false
    ? Object.fromEntries(
      Object.entries(clientHeaders).filter(([name]) => name.toLowerCase() === "user-agent"),
    )
    : clientHeaders;
  const headers: Record<string, string> = { ...configured, ...request.headers };
  let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined = request.body;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers["content-type"] ??= "application/json";
  }
  const bodyText = typeof body === "string"
    ? body
    : body instanceof Uint8Array
    ? bodyKeyText(body)
    : "";
  // The same query in another format (SPARQL JSON or XML) is another answer.
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === "accept")?.[1];
  const asked = accept ? `accept: ${accept}\n${bodyText}` : bodyText;
  // With a key the answer may differ (private data): keyed apart, by the fact, never by the key.
  const cacheBody = request.authenticated ? `${asked}\nwith an API key` : asked;
  return { method, url, body, headers, cacheBody, idempotent };
}
