/**
 * Answers and their bodies: the buffered answer an adapter reads, the
 * stream a download reads, reading a body within the size cap, and the
 * watchdog that cuts a body that stops flowing.
 *
 * @module
 */

import { ProtocolError, ResponseTooLargeError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";

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
  /** The body parsed as JSON; a body that is not JSON is a `ProtocolError` (code `notJson`). */
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
  /** Whether a redirect was followed. */
  redirected?: boolean;
}

/** An answer whose body is held in memory, with `text()` and `json()` read once. */
export function bufferedResponse(
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
        // A body that is not what the protocol promises is the service's fault, whatever its status.
        throw new ProtocolError(
          `Response is not valid JSON: ${redact(fields.url)}`,
          {
            code: "notJson",
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
 * `ms` while a chunk is awaited, and failing with the error it returns. The clock runs only while the reader waits
 * for data (pull-based, no read-ahead), so a slow reader is never mistaken
 * for a stalled server.
 */
export function watchIdle(
  body: ReadableStream<Uint8Array>,
  ms: number,
  onIdle: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let stalled: Error | undefined;
      const timer = setTimeout(() => {
        stalled = onIdle();
        // The caller's abort should end the read; cancelling it here ends it even where
        // the abort does not reach a body already being read.
        reader.cancel(stalled).catch(() => {});
      }, ms);
      Deno.unrefTimer(timer);
      try {
        const { done, value } = await reader.read();
        if (stalled) controller.error(stalled);
        else if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(stalled ?? error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * A body that fails with {@linkcode ResponseTooLargeError} once it passes
 * `limit` bytes, for a reader that works as the body arrives.
 */
export function cappedStream(
  body: ReadableStream<Uint8Array>,
  limit: number,
  method: string,
  url: string,
): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new ResponseTooLargeError({ method, url, limit }));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** Reads a body into memory, failing once it passes `limit` bytes. */
export async function readCapped(
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
  // Otherwise counted as it arrives, as a streamed body is.
  const capped = cappedStream(answer.body, limit, method, url);
  return new Uint8Array(await new Response(capped).arrayBuffer());
}

/**
 * The most bytes a download whose server declares no length may have, unless
 * the call says otherwise (`maxBytes`): 4 GiB. A declared `Content-Length`
 * is the cap of its own download.
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 4 * 1024 ** 3;

/** How a download body is held to its length. */
export interface DownloadGuard {
  /** The length the server declared (`Content-Length` of an uncoded body), if any. */
  declared?: number;
  /** The cap when none is declared. */
  limit: number;
  /** The request, for messages. */
  method: string;
  /** The request's URL, for messages (redacted there). */
  url: string;
  /** Called once when the body ends in any way (done, failed, cancelled). */
  onEnd?: () => void;
}

/**
 * A download body held to its length: it fails once it passes the declared
 * length (or, with none, the cap), and when it ends short of a declared
 * length, so a body that never ends cannot fill a disk and a cut one is
 * never taken for complete. Pull-based: nothing is read ahead of the reader.
 *
 * @param body The body as it arrives.
 * @param guard The declared length, the cap and the request.
 * @returns The same bytes, or an error where the body breaks its length.
 *
 * @example A body that sends more than it declared
 * ```ts
 * const body = ReadableStream.from([new Uint8Array(8)]);
 * const guarded = guardDownload(body, { declared: 4, limit: 100, method: "GET", url: "http://x/" });
 * await new Response(guarded).arrayBuffer().catch((e) => console.log(e.name)); // ProtocolError
 * ```
 */
export function guardDownload(
  body: ReadableStream<Uint8Array>,
  guard: DownloadGuard,
): ReadableStream<Uint8Array> {
  const { declared, limit, method, url } = guard;
  const reader = body.getReader();
  let size = 0;
  let ended = false;
  const end = () => {
    if (!ended) guard.onEnd?.();
    ended = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        end();
        throw error;
      }
      if (step.done) {
        end();
        if (declared !== undefined && size < declared) {
          controller.error(
            new ProtocolError(
              `Download ended after ${size} of its declared ${declared} bytes: ${method} ${
                redact(url)
              }`,
              {
                code: "shortBody",
                hint: "The server cut the transfer; nothing was kept, try again",
              },
            ),
          );
        } else controller.close();
        return;
      }
      size += step.value.byteLength;
      if (size > (declared ?? limit)) {
        end();
        await reader.cancel().catch(() => {});
        controller.error(
          declared !== undefined
            ? new ProtocolError(
              `Download sent more than its declared ${declared} bytes: ${method} ${redact(url)}`,
              {
                code: "longBody",
                hint: "The server broke its own Content-Length; nothing was kept, report it",
              },
            )
            : new ResponseTooLargeError({
              method,
              url,
              limit,
              hint:
                "The server declared no length and sent past the cap; pass a larger maxBytes to the call if the file is expected to be this large",
            }),
        );
        return;
      }
      controller.enqueue(step.value);
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
