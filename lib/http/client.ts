/**
 * The one HTTP client every adapter uses: timeouts, retries, pacing, typed
 * errors, redaction, the record/replay cache, a response size cap and
 * progress.
 *
 * @module
 */

import { inlineText } from "../errors/terminal_text.ts";
import { isLocalService } from "./local_services.ts";
import { type CacheMode, ResponseCache } from "./cache.ts";
import { cacheFromEnvironment } from "./cache_from_env.ts";
import { SUCCESSFUL_ANSWERS } from "./cache_policy.ts";
import {
  CacheMissError,
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
import { redact, registerHeaderSecrets, registerSecret, showValue } from "../errors/redact.ts";
import { errorFromResponse } from "./error_from_response.ts";
import { type RetryPolicy, retryPolicy } from "./retry.ts";
import { currentOperation, noteRequest } from "../table/call_trace.ts";
import { TIDEPOOL_VERSION } from "../version.ts";
import {
  type HttpRequest,
  type PreparedRequest,
  prepareRequest,
  type QueryValue,
  requestUrl,
} from "./request.ts";
import {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  guardDownload,
  type HttpResponse,
  type HttpStream,
  readCapped,
  watchIdle,
} from "./response.ts";
import { type AnsweredAttempt, withRetries } from "./_retry_loop.ts";
import { afterWrites, cachedResponse, noteWrite, recordResponse } from "./_cache_read_through.ts";

export type { HttpRequest, QueryValue } from "./request.ts";
export type { HttpResponse, HttpStream } from "./response.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const USER_AGENT = `tidepool/${TIDEPOOL_VERSION} (Deno; +https://github.com/tidepool)`;

/**
 * The HTTP client an adapter holds. Adapters call {@linkcode request} or
 * {@linkcode stream}; nothing else in tidepool calls `fetch`.
 *
 * @example Reading JSON from a service
 * ```ts
 * import { startExpressionSandbox } from "../sandbox/expressions/mod.ts";
 * await using sandbox = startExpressionSandbox({ size: 100 });
 * const http = new HttpClient(sandbox.url, { timeoutMs: 10_000, progress: false });
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
  /** The `concurrency` the caller gave, if any (not a service's default). */
  readonly #concurrencyAsked: number | undefined;
  readonly #pacers = new Map<string, HostPacer>();
  readonly #progress: ProgressSink;
  readonly #warn: (message: string) => void;

  /**
   * Creates a client of one service; no request is sent until the first call.
   *
   * @param baseUrl The service address; paths are joined below it.
   * @param options The shared client options, and `defaults`: a service's
   *   own pacing, applied before the options.
   */
  constructor(
    baseUrl: string,
    options: ClientOptions & { defaults?: ClientDefaults } = {},
  ) {
    const defaults = options.defaults ?? {};
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      // A key passed where the URL goes is described, never echoed.
      throw new TidepoolError(`Invalid service URL: ${showValue(baseUrl, 200)}`, {
        hint: "Give an absolute http or https URL, such as https://node.example",
      });
    }
    // A password in the URL (https://user:password@host/) is a secret from here on.
    if (parsed.password) registerSecret(decodeURIComponent(parsed.password));
    if (parsed.username) registerSecret(decodeURIComponent(parsed.username));
    registerHeaderSecrets(options.headers);
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
    // No cache option: the environment's switch decides, so a notebook records and replays unchanged.
    const cache = options.cache ?? cacheFromEnvironment();
    this.#cache = cache && cache.mode !== "off" ? new ResponseCache(cache) : undefined;
    this.#signal = options.signal;
    this.#headers = { "user-agent": USER_AGENT, ...options.headers };
    // A service's polite interval is for public servers: a sandbox this process runs gets none.
    const defaultInterval = isLocalService(this.baseUrl) ? 0 : defaults.minIntervalMs ?? 0;
    this.#concurrencyAsked = options.concurrency;
    this.#pacing = {
      minIntervalMs: options.minIntervalMs ?? defaultInterval,
      concurrency: options.concurrency ?? defaults.concurrency ?? 6,
    };
    // Where no sink is given, the process-wide default (the kernel display, installed by
    // lib/notebook) or a terminal line serves: no client chooses a display.
    this.#progress = progressSink(options.progress);
    // Printed by the library itself, a warning naming what a server sent is shown inert, on one line.
    this.#warn = options.warn ??
      ((message) => console.warn(`tidepool: ${inlineText(message)}`));
  }

  /**
   * Whether answers go through a response cache (recording or replaying):
   * a read that must be stored is then requested whole, never streamed.
   */
  get caching(): boolean {
    return this.#cache !== undefined;
  }

  /**
   * The cache mode in force (`off` without a cache): a payment asks it, to
   * refuse to run in `replay`.
   */
  get cacheMode(): CacheMode {
    return this.#cache?.mode ?? "off";
  }

  /** Whether answers come only from a recording (replay mode): nothing is sent. */
  get replaying(): boolean {
    return this.#cache?.mode === "replay";
  }

  /** The most bytes a whole answer may have (`maxResponseBytes`). */
  get maxResponseBytes(): number {
    return this.#maxBytes;
  }

  /**
   * The `concurrency` the caller asked for, or undefined where a service's
   * default is in force: a read that would change what it returns (the row
   * order of an OAI-PMH harvest walked in windows) goes parallel only when asked.
   */
  get concurrencyAsked(): number | undefined {
    return this.#concurrencyAsked;
  }

  /** The pacing in force: interval and concurrency per host. */
  get pacing(): { minIntervalMs: number; concurrency: number } {
    return { ...this.#pacing };
  }

  /**
   * Requests in flight now, to every host, and the window they may fill
   * (the `concurrency` cap per host, or less while a host that answered
   * 429 or 503 is being eased back): what progress shows of a parallel read.
   */
  get inFlight(): { requests: number; window: number } {
    let requests = 0;
    let window = 0;
    for (const pacer of this.#pacers.values()) {
      requests += pacer.inFlight;
      window += pacer.window;
    }
    return { requests, window: window || this.#pacing.concurrency };
  }

  /** Builds the absolute URL of a request. */
  url(path: string, query?: Record<string, QueryValue>): URL {
    return requestUrl(this.baseUrl, path, query);
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
    await this.#cache?.remember(this.baseUrl, { name, value });
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
    registerHeaderSecrets(request.headers);
    const unkeyed = prepareRequest(request, this.baseUrl, this.#headers);
    const { method, url, body, headers, idempotent } = unkeyed;
    const policy = request.cachePolicy ?? SUCCESSFUL_ANSWERS;
    const streamed = body instanceof ReadableStream;
    // A write is stored only when its operation says its answer may be; it is
    // always sent while recording, and answered from the recording in replay.
    const write = WRITE_METHODS.has(method) && !idempotent;
    const storedWrite = write && request.cachePolicy?.store === "answers" && !streamed;
    const cacheable = storedWrite ||
      (!write && policy.store !== "never" && !request.sensitive && !streamed &&
        (request.cacheable ?? idempotent));
    const cache = cacheable ? this.#cache : undefined;
    if (!cacheable) this.#refuseInReplay(method, url);
    const prepared = cache ? afterWrites(cache, unkeyed) : unkeyed;

    const cached = cache && (!write || cache.mode === "replay") &&
      await cachedResponse(cache, prepared);
    if (cached) {
      noteRequest({
        receivedAt: cached.receivedAt,
        cacheKey: cached.cacheKey,
        authenticated: request.authenticated,
      });
      return this.#afterWrite(storedWrite, url, this.#check(method, request, cached));
    }

    const response = await this.#withRetries(
      prepared,
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
    if (cache) await recordResponse(cache, policy, prepared, response);
    noteRequest({
      receivedAt: response.receivedAt,
      cacheKey: response.cacheKey,
      authenticated: request.authenticated,
    });
    return this.#afterWrite(storedWrite, url, this.#check(method, request, response));
  }

  /** After a successful stored write, the service's later reads are keyed apart. */
  #afterWrite(storedWrite: boolean, url: URL, response: HttpResponse): HttpResponse {
    if (storedWrite && this.#cache) noteWrite(this.#cache, url);
    return response;
  }

  /**
   * Sends a request and hands back the body as a stream once the status is
   * known to be good, for downloads that should not be held in memory.
   * Never cached; retried only before the body is handed over. The body is
   * held to its declared `Content-Length`, else to `maxBytes` (default
   * {@linkcode DEFAULT_MAX_DOWNLOAD_BYTES}), and the client's and the
   * request's signals end it until its last byte.
   */
  async stream(request: HttpRequest): Promise<HttpStream> {
    registerHeaderSecrets(request.headers);
    const prepared = prepareRequest(request, this.baseUrl, this.#headers);
    const { method, url, body, headers, idempotent } = prepared;
    this.#refuseInReplay(method, url);
    // The per-attempt timeout ends when the headers are in; from then on a
    // body that stops flowing for the same time is cut by this watchdog.
    const idle = new AbortController();
    const response = await this.#withRetries(
      prepared,
      request,
      idempotent,
      async (signal) => {
        const answer = await this.#fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.any([signal, idle.signal]),
          redirect: request.redirect ?? "follow",
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
        redirected: response.answer.redirected,
      };
    }
    const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
    // The signals go on ending the body after the headers: aborting cuts the
    // transfer itself, not only a request still waiting.
    const outer = this.#signals(request.signal);
    const onAbort = () => idle.abort(outer!.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener("abort", onAbort, { once: true });
    const received = watchIdle(
      response.answer.body ?? new Response("").body!,
      timeoutMs,
      () => {
        const stalled = new TimeoutError(
          `Download stalled: no data for ${timeoutMs} ms from ${method} ${redact(url.toString())}`,
          { hint: "The service stopped sending; try again, or raise timeoutMs for slow links" },
        );
        idle.abort(stalled);
        return stalled;
      },
    );
    const length = Number(response.headers.get("content-length") ?? NaN);
    const declared = Number.isSafeInteger(length) && length >= 0 &&
        !response.headers.has("content-encoding")
      ? length
      : undefined;
    const limit = request.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
    // A cap the caller set also holds against a length the server declares.
    if (request.maxBytes !== undefined && declared !== undefined && declared > limit) {
      outer?.removeEventListener("abort", onAbort);
      await received.cancel().catch(() => {});
      throw new ResponseTooLargeError({
        method,
        url: url.toString(),
        limit,
        hint:
          `The server declared ${declared} bytes; pass a larger maxBytes to the call to accept it`,
      });
    }
    return {
      status: response.status,
      headers: response.headers,
      url: response.url,
      redirected: response.answer.redirected,
      body: guardDownload(received, {
        declared,
        limit,
        method,
        url: url.toString(),
        onEnd: () => outer?.removeEventListener("abort", onAbort),
      }),
    };
  }

  /** Replay mode promises no network: a request that is never stored cannot run in it. */
  #refuseInReplay(method: string, url: URL): void {
    if (this.#cache?.mode === "replay") {
      throw new CacheMissError(method, url.toString(), {
        dir: this.#cache.dir,
        replayable: false,
        operation: currentOperation(),
      });
    }
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

  /** Runs the attempts of one request under the client's retry policy, timeout and pacing. */
  #withRetries(
    prepared: PreparedRequest,
    request: HttpRequest,
    retryable: boolean,
    attempt: (signal: AbortSignal) => Promise<{ answer: Response; bytes?: Uint8Array }>,
    streaming = false,
  ): Promise<AnsweredAttempt> {
    return withRetries(prepared.method, prepared.url, retryable, attempt, {
      policy: this.#retry,
      timeoutMs: request.timeoutMs ?? this.#timeoutMs,
      pacer: this.#pacer(prepared.url),
      signal: this.#signals(request.signal),
      acceptStatus: request.acceptStatus,
      final: request.final,
      streaming,
    });
  }

  #check(method: string, request: HttpRequest, response: HttpResponse): HttpResponse {
    if (response.status >= 200 && response.status < 300) return response;
    if (request.acceptStatus?.includes(response.status)) return response;
    throw errorFromResponse(method, response);
  }
}
