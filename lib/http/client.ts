/**
 * The one HTTP client every adapter uses: timeouts, retries, pacing, typed
 * errors, redaction, the record/replay cache, a response size cap and
 * progress.
 *
 * @module
 */

import { isLocalService } from "./local_services.ts";
import { cacheKey, ResponseCache } from "./cache.ts";
import { type CachePolicy, SUCCESSFUL_ANSWERS, worthStoring } from "./cache_policy.ts";
import {
  CacheMissError,
  NetworkError,
  ResponseTooLargeError,
  TidepoolError,
  TimeoutError,
} from "../errors/errors.ts";
import type { ClientDefaults, ClientOptions } from "./options.ts";
import { HostPacer } from "./pacer.ts";
import {
  type ProgressSink,
  progressSink,
  type ProgressTask,
  startProgress,
} from "../progress/progress.ts";
import { redact } from "../errors/redact.ts";
import { errorFromResponse, isChallenge } from "./error_from_response.ts";
import {
  backoffDelay,
  bodyWaitMs,
  RETRYABLE_STATUSES,
  retryAfterMs,
  type RetryPolicy,
  retryPolicy,
} from "./retry.ts";
import { sleep } from "./sleep.ts";
import { noteRequest } from "../table/call_trace.ts";
import { TIDEPOOL_VERSION } from "../version.ts";

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
  /** Whether the answer may be cached; default: idempotent and not sensitive. */
  cacheable?: boolean;
  /**
   * The operation's cache policy: which answers are worth replaying. Default:
   * successful (2xx) answers whose JSON, if any, parses.
   */
  cachePolicy?: CachePolicy;
  /** Statuses that are handed back instead of thrown, besides 2xx. */
  acceptStatus?: readonly number[];
  /** Time limit of one attempt; defaults to the client's. */
  timeoutMs?: number;
  /** Cancels this request. */
  signal?: AbortSignal;
  /** Body size cap for this request; defaults to the client's. */
  maxBytes?: number;
}

/** A buffered answer. */
export interface HttpResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (only the kept ones when served from the cache). */
  headers: Headers;
  /** The final URL, after redirects. */
  url: string;
  /** Whether a redirect was followed. */
  redirected: boolean;
  /** Whether the answer came from the record/replay cache. */
  fromCache: boolean;
  /** How many attempts it took (0 when served from the cache). */
  attempts: number;
  /** When the answer was received (ISO 8601); from the cache, when it was recorded. */
  receivedAt?: string;
  /** The record/replay cache key of the request, when the cache was consulted. */
  cacheKey?: string;
  /** The body bytes. */
  bytes: Uint8Array;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
}

/** An answer whose body is still a stream (downloads). */
export interface HttpStream {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The final URL, after redirects. */
  url: string;
  /** The body, to be consumed once. */
  body: ReadableStream<Uint8Array>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const USER_AGENT = `tidepool/${TIDEPOOL_VERSION} (Deno; +https://github.com/tidepool)`;

/**
 * The HTTP client an adapter holds. Adapters call {@linkcode request} or
 * {@linkcode stream}; nothing else in tidepool calls `fetch`.
 *
 * @example Reading JSON from a service
 * ```ts ignore
 * const http = new HttpClient("https://expressions.example", { timeoutMs: 10_000 });
 * const response = await http.request({ path: "/api/stats" });
 * console.log(response.json());
 * ```
 */
export class HttpClient {
  /** The base URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #maxBytes: number;
  readonly #cache?: ResponseCache;
  readonly #signal?: AbortSignal;
  readonly #headers: Record<string, string>;
  readonly #pacing: { minIntervalMs: number; concurrency: number };
  readonly #pacers = new Map<string, HostPacer>();
  readonly #progress: ProgressSink;
  readonly #warn: (message: string) => void;

  /**
   * Creates a client of one service; no request is sent until the first call.
   *
   * @param baseUrl The service address; paths are joined below it.
   * @param options The shared client options.
   * @param defaults Per-service defaults applied before the options.
   */
  constructor(
    baseUrl: string,
    options: ClientOptions = {},
    defaults: ClientDefaults = {},
  ) {
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new TidepoolError(`Invalid service URL: ${baseUrl}`, {
        hint: "Give an absolute http or https URL, such as https://node.example",
      });
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new TidepoolError(`Unsupported URL scheme: ${parsed.protocol}`, {
        hint: "Give an http or https URL",
      });
    }
    this.baseUrl = parsed.toString().replace(/\/+$/, "");
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retry = retryPolicy(options.retry);
    this.#maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_BYTES;
    this.#cache = options.cache && options.cache.mode !== "off"
      ? new ResponseCache(options.cache)
      : undefined;
    this.#signal = options.signal;
    this.#headers = { "user-agent": USER_AGENT, ...options.headers };
    // A service's polite interval is for public servers: a sandbox this process runs gets none.
    const defaultInterval = isLocalService(this.baseUrl) ? 0 : defaults.minIntervalMs ?? 0;
    this.#pacing = {
      minIntervalMs: options.minIntervalMs ?? defaultInterval,
      concurrency: options.concurrency ?? defaults.concurrency ?? 6,
    };
    this.#progress = progressSink(options.progress, defaults.progress);
    this.#warn = options.warn ??
      ((message) => console.warn(`tidepool: ${message}`));
  }

  /** The pacing in force: interval and concurrency per host. */
  get pacing(): { minIntervalMs: number; concurrency: number } {
    return { ...this.#pacing };
  }

  /** Builds the absolute URL of a request. */
  url(path: string, query?: Record<string, QueryValue>): URL {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(path)
      ? new URL(path)
      : new URL(this.baseUrl + (path.startsWith("/") ? path : `/${path}`));
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) url.searchParams.append(name, String(item));
    }
    return url;
  }

  /**
   * Reads a setting recorded for this service by an earlier run (see
   * {@linkcode remember}); undefined without a cache, in `refresh` mode, or
   * when none was recorded.
   *
   * @param name The setting, such as `pageSize /api/search`.
   * @returns The recorded JSON value.
   */
  async recall(name: string): Promise<unknown> {
    return await this.#cache?.recall(this.baseUrl, name);
  }

  /**
   * Keeps a setting the client discovered (a page size found by probing) in
   * the recording, so replay needs no probe and later recordings send none.
   *
   * @param name The setting.
   * @param value A JSON value.
   */
  async remember(name: string, value: unknown): Promise<void> {
    await this.#cache?.remember(this.baseUrl, name, value);
  }

  /** Starts a progress task on the client's sink. */
  progress(
    label: string,
    options: { unit?: string; total?: number } = {},
  ): ProgressTask {
    return startProgress(this.#progress, label, options);
  }

  /** Shows a warning to the user, redacted. */
  warn(message: string): void {
    this.#warn(redact(message));
  }

  /**
   * Sends a request and reads the whole body (within the size cap).
   * Non-2xx statuses become typed errors unless listed in `acceptStatus`.
   */
  async request(request: HttpRequest): Promise<HttpResponse> {
    const { method, url, body, headers, cacheBody, idempotent } = this.#prepare(request);
    const policy = request.cachePolicy ?? SUCCESSFUL_ANSWERS;
    const cacheable = policy.store !== "never" && !request.sensitive &&
      !(body instanceof ReadableStream) &&
      (request.cacheable ?? idempotent);
    const cache = cacheable ? this.#cache : undefined;
    if (!cacheable) this.#refuseInReplay(method, url);

    const cached = await cache?.read(method, url.toString(), cacheBody);
    if (cached) {
      const response = bufferedResponse({
        status: cached.status,
        headers: new Headers(cached.headers),
        url: url.toString(),
        redirected: false,
        fromCache: true,
        attempts: 0,
        bytes: cached.body,
        receivedAt: cached.recordedAt,
        cacheKey: cached.key,
      });
      noteRequest({ receivedAt: cached.recordedAt, cacheKey: cached.key });
      return this.#check(method, request, response);
    }

    const response = await this.#withRetries(
      method,
      url,
      request,
      idempotent && !(body instanceof ReadableStream),
      async (signal) => {
        const answer = await this.#fetch(url, {
          method,
          headers,
          body,
          signal,
          ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
        } as RequestInit);
        const bytes = await readCapped(
          answer,
          request.maxBytes ?? this.#maxBytes,
          method,
          url.toString(),
        );
        return { answer, bytes };
      },
    );
    if (cache) {
      response.cacheKey = await cacheKey(method, url.toString(), cacheBody);
      // What is not an answer is still recorded, marked, so a replay retraces
      // this run exactly (the same restart after the same refused token); a
      // live client never gets it back and asks again.
      await cache.write(method, url.toString(), cacheBody, {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: response.bytes,
        recordedAt: response.receivedAt,
        key: response.cacheKey,
        replayOnly: !(await worthStoring(policy, response)),
      });
    }
    noteRequest({ receivedAt: response.receivedAt, cacheKey: response.cacheKey });
    return this.#check(method, request, response);
  }

  /**
   * Sends a request and hands back the body as a stream once the status is
   * known to be good, for downloads that should not be held in memory.
   * Never cached; retried only before the body is handed over.
   */
  async stream(request: HttpRequest): Promise<HttpStream> {
    const { method, url, body, headers, idempotent } = this.#prepare(request);
    this.#refuseInReplay(method, url);
    // The per-attempt timeout ends when the headers are in; from then on a
    // body that stops flowing for the same time is cut by this watchdog.
    const idle = new AbortController();
    const response = await this.#withRetries(
      method,
      url,
      request,
      idempotent,
      async (signal) => {
        const answer = await this.#fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.any([signal, idle.signal]),
        } as RequestInit);
        if (answer.ok) return { answer, bytes: undefined };
        // An error answer is read (capped) so the error can say what the server said.
        const bytes = await readCapped(answer, 64 * 1024, method, url.toString())
          .catch(() => new Uint8Array());
        return { answer, bytes };
      },
      true,
    );
    noteRequest({ receivedAt: response.receivedAt });
    if (!response.answer.ok) {
      // Throws unless the status is accepted; an accepted one hands back the bytes read.
      this.#check(method, request, response);
      return {
        status: response.status,
        headers: response.headers,
        url: response.url,
        body: ReadableStream.from([response.bytes]),
      };
    }
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    return {
      status: response.status,
      headers: response.headers,
      url: response.url,
      body: watchIdle(response.answer.body ?? new Response("").body!, timeoutMs, () =>
        idle.abort(
          new TimeoutError(
            `Download stalled: no data for ${timeoutMs} ms from ${method} ${
              redact(url.toString())
            }`,
            { hint: "The service stopped sending; try again, or raise timeoutMs for slow links" },
          ),
        )),
    };
  }

  /** Replay mode promises no network: a request that is never stored cannot run in it. */
  #refuseInReplay(method: string, url: URL): void {
    if (this.#cache?.mode === "replay") {
      throw new CacheMissError(method, url.toString(), this.#cache.dir, false);
    }
  }

  /** The method, URL, headers and body of a request, and whether repeating it is harmless. */
  #prepare(request: HttpRequest) {
    const method = request.method ?? "GET";
    const url = this.url(request.path, request.query);
    const idempotent = request.idempotent ?? (method === "GET" || method === "HEAD");
    const headers: Record<string, string> = { ...this.#headers, ...request.headers };
    let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers["content-type"] ??= "application/json";
    }
    const bodyText = typeof body === "string"
      ? body
      : body instanceof Uint8Array
      ? new TextDecoder().decode(body)
      : "";
    // The same query in another format (SPARQL JSON or XML) is another answer.
    const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === "accept")?.[1];
    const cacheBody = accept ? `accept: ${accept}\n${bodyText}` : bodyText;
    return { method, url, body, headers, cacheBody, idempotent };
  }

  #signals(signal?: AbortSignal): AbortSignal | undefined {
    const signals = [this.#signal, signal].filter((s): s is AbortSignal => !!s);
    if (signals.length === 0) return undefined;
    return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }

  #pacer(url: URL): HostPacer {
    let pacer = this.#pacers.get(url.host);
    if (!pacer) {
      pacer = new HostPacer(this.#pacing);
      this.#pacers.set(url.host, pacer);
    }
    return pacer;
  }

  async #withRetries(
    method: string,
    url: URL,
    request: HttpRequest,
    retryable: boolean,
    attempt: (signal: AbortSignal) => Promise<{ answer: Response; bytes?: Uint8Array }>,
    streaming = false,
  ): Promise<BufferedResponse & { answer: Response }> {
    const started = Date.now();
    const policy = this.#retry;
    const outer = this.#signals(request.signal);
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    const printable = redact(url.toString());
    for (let tries = 1;; tries++) {
      const pacer = this.#pacer(url);
      await pacer.acquire(outer);
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new DOMException("timeout", "TimeoutError")),
        timeoutMs,
      );
      const signal = outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal;
      let failure: unknown;
      let wait: number | undefined;
      try {
        const { answer, bytes } = await attempt(signal);
        const result = {
          answer,
          ...bufferedResponse({
            status: answer.status,
            headers: answer.headers,
            url: answer.url || url.toString(),
            redirected: answer.redirected,
            fromCache: false,
            attempts: tries,
            bytes: bytes ?? new Uint8Array(),
            receivedAt: new Date().toISOString(),
          }),
        };
        if (!RETRYABLE_STATUSES.has(answer.status) || !retryable) return result;
        // A challenge (some layers send it as 503) will not pass on a retry.
        if (isChallenge(result)) return result;
        if (request.acceptStatus?.includes(answer.status)) return result;
        failure = result;
        wait = retryAfterMs(answer.headers.get("retry-after"));
        if (wait === undefined && answer.status === 429) {
          wait = bodyWaitMs(result.text());
        }
      } catch (error) {
        if (outer?.aborted) throw outer.reason;
        if (timeout.signal.aborted) {
          failure = new TimeoutError(
            `Request timed out after ${timeoutMs} ms: ${method} ${printable}`,
            {
              hint:
                "The service is slow or unreachable; raise timeoutMs in the client options or try again later",
              cause: error,
            },
          );
        } else if (error instanceof TidepoolError) {
          throw error;
        } else {
          failure = new NetworkError(
            `Network error: ${method} ${printable}`,
            {
              details: error instanceof Error ? error.message : String(error),
              hint: "Check that the service address is right and reachable",
              cause: error,
            },
          );
        }
        if (!retryable) throw failure;
      } finally {
        clearTimeout(timer);
        if (!streaming) pacer.release();
        else queueMicrotask(() => pacer.release());
      }

      const delay = wait ?? backoffDelay(policy, tries - 1);
      const elapsed = Date.now() - started;
      if (tries > policy.retries || elapsed + delay > policy.maxElapsedMs) {
        if (failure instanceof Error) throw failure;
        return failure as BufferedResponse & { answer: Response };
      }
      await sleep(delay, outer);
    }
  }

  #check(method: string, request: HttpRequest, response: HttpResponse): HttpResponse {
    if (response.status >= 200 && response.status < 300) return response;
    if (request.acceptStatus?.includes(response.status)) return response;
    throw errorFromResponse(method, response);
  }
}

type BufferedResponse = HttpResponse;

function bufferedResponse(
  fields: Omit<HttpResponse, "text" | "json">,
): HttpResponse {
  let text: string | undefined;
  return {
    ...fields,
    text: () => (text ??= new TextDecoder().decode(fields.bytes)),
    json<T>() {
      const body = text ??= new TextDecoder().decode(fields.bytes);
      try {
        return JSON.parse(body) as T;
      } catch (error) {
        throw new TidepoolError(
          `Response is not valid JSON: ${redact(fields.url)}`,
          {
            details: body,
            hint: "The service answered in another format; check the URL and the service version",
            cause: error,
          },
        );
      }
    },
  };
}

/**
 * Passes a body through, calling `onIdle` when the server sends nothing for
 * `ms` while a chunk is awaited. The clock runs only while the reader waits
 * for data (pull-based, no read-ahead), so a slow reader is never mistaken
 * for a stalled server.
 */
function watchIdle(
  body: ReadableStream<Uint8Array>,
  ms: number,
  onIdle: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const timer = setTimeout(onIdle, ms);
      Deno.unrefTimer(timer);
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** Reads a body into memory, failing once it passes `limit` bytes. */
async function readCapped(
  answer: Response,
  limit: number,
  method: string,
  url: string,
): Promise<Uint8Array> {
  const declared = Number(answer.headers.get("content-length") ?? NaN);
  if (declared > limit) {
    await answer.body?.cancel();
    throw new ResponseTooLargeError({ method, url, limit });
  }
  if (!answer.body) return new Uint8Array();
  // A declared length within the cap, of an uncompressed body (a compressed
  // one may inflate past the cap): one read, no chunk bookkeeping.
  if (Number.isFinite(declared) && !answer.headers.has("content-encoding")) {
    return new Uint8Array(await answer.arrayBuffer());
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ResponseTooLargeError({ method, url, limit });
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
