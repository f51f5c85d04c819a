/**
 * What the requests of one call were: their cache keys, when the first was
 * sent and the last answered, and the "as of" the service stated. A call
 * (`searchAssets`, `harvest`...) runs inside {@linkcode traceCall}; the HTTP
 * client notes every request into the trace of the call it runs for, and
 * the code that reads an answer notes what it says about its own age with
 * {@linkcode noteAsOf}. The trace follows the call through `await`s and
 * concurrent pages (an async context), so concurrent calls on one client
 * keep apart, and a call made inside another counts for both.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one call's requests were, as {@linkcode traceCall} hands it back.
 * Times are those of the answers, so a call replayed from the cache states
 * the times of the recording, the same as the recording run did.
 */
export interface CallTrace {
  /** When the first answer arrived (ISO 8601); from the cache, when it was recorded. */
  startedAt?: string;
  /** When the last answer arrived (ISO 8601); from the cache, when it was recorded. */
  endedAt?: string;
  /** The cache keys of the requests, in order, each once. */
  cacheKeys: string[];
  /** The service's own "as of", as the answers stated it; later notes win. */
  asOf: Record<string, string | number>;
  /** Whether a request carried an API key (private data may have been read). */
  authenticated?: boolean;
}

/** One request as the HTTP client notes it. */
export interface TracedRequest {
  /** When its answer arrived (ISO 8601); for a cached answer, when it was recorded. */
  receivedAt?: string;
  /** Its cache key, when the cache was consulted. */
  cacheKey?: string;
  /** Whether it carried an API key. */
  authenticated?: boolean;
}

interface Frame {
  operation?: string;
  trace: CallTrace;
  keys: Set<string>;
  parent?: Frame;
}

const frames = new AsyncLocalStorage<Frame>();

/**
 * Runs a call and collects what its requests were.
 *
 * @param run The call.
 * @param operation The call's name (`Subgraph.orders`), for errors raised inside it.
 * @returns Its value and its trace.
 *
 * @example Tracing a call
 * ```ts
 * const { value, trace } = await traceCall(async () => {
 *   noteAsOf({ block: 12 });
 *   return 1;
 * });
 * console.log(value, trace.asOf); // 1 { block: 12 }
 * ```
 */
export async function traceCall<T>(
  run: () => Promise<T>,
  operation?: string,
): Promise<{ value: T; trace: CallTrace }> {
  const frame: Frame = {
    operation,
    trace: { cacheKeys: [], asOf: {} },
    keys: new Set(),
    parent: frames.getStore(),
  };
  const value = await frames.run(frame, run);
  return { value, trace: frame.trace };
}

/**
 * The public call running now (the innermost named one), for an error that
 * should say which call it came from; undefined outside a traced call.
 *
 * @returns The call's name, such as `Subgraph.orders`.
 */
export function currentOperation(): string | undefined {
  for (let frame = frames.getStore(); frame; frame = frame.parent) {
    if (frame.operation) return frame.operation;
  }
  return undefined;
}

/**
 * Notes a request in the traces of the calls it runs for (the HTTP client
 * calls it for every answer it hands back); does nothing outside a call.
 *
 * @param request When it was sent and answered, and its cache key.
 */
export function noteRequest(request: TracedRequest): void {
  for (let frame = frames.getStore(); frame; frame = frame.parent) {
    const trace = frame.trace;
    const at = request.receivedAt;
    if (at && (!trace.startedAt || at < trace.startedAt)) trace.startedAt = at;
    if (at && (!trace.endedAt || at > trace.endedAt)) trace.endedAt = at;
    if (request.authenticated) trace.authenticated = true;
    if (request.cacheKey && !frame.keys.has(request.cacheKey)) {
      frame.keys.add(request.cacheKey);
      trace.cacheKeys.push(request.cacheKey);
    }
  }
}

/**
 * Notes what an answer says about its own age (a block, a response date),
 * in the traces of the calls it is read for; does nothing outside a call.
 *
 * @param asOf Fields of the service's "as of"; undefined and null values are left out.
 *
 * @example An answer's block
 * ```ts
 * noteAsOf({ block: 123, blockTime: undefined });
 * ```
 */
export function noteAsOf(asOf: Record<string, string | number | null | undefined>): void {
  for (let frame = frames.getStore(); frame; frame = frame.parent) {
    for (const [name, value] of Object.entries(asOf)) {
      if (value !== null && value !== undefined) frame.trace.asOf[name] = value;
    }
  }
}

/**
 * Runs a request apart from the calls it runs for: its trace is handed back
 * and noted nowhere else until {@linkcode noteTrace} hands it on. A page
 * read ahead is requested while the page before it is handed on, in that
 * page's context; tracing it apart and noting its trace when the page is
 * taken gives each page its own requests, and the call that reads every
 * page all of them, in page order.
 *
 * @param run The request.
 * @returns Its value and its trace.
 *
 * @example A request noted where its answer is used
 * ```ts
 * const page = await traceApart(async () => {
 *   noteAsOf({ block: 7 });
 *   return "rows";
 * });
 * const { trace } = await traceCall(async () => noteTrace(page.trace));
 * console.log(trace.asOf); // { block: 7 }
 * ```
 */
export async function traceApart<T>(
  run: () => Promise<T>,
): Promise<{ value: T; trace: CallTrace }> {
  // Apart from the running call's trace, but still inside it for errors that name it.
  const frame: Frame = {
    operation: currentOperation(),
    trace: { cacheKeys: [], asOf: {} },
    keys: new Set(),
  };
  const value = await frames.run(frame, run);
  return { value, trace: frame.trace };
}

/**
 * Notes a trace taken apart (see {@linkcode traceApart}) in the traces of
 * the calls now running: its times, cache keys and "as of".
 *
 * @param trace The trace.
 */
export function noteTrace(trace: CallTrace): void {
  if (!frames.getStore()) return;
  if (trace.startedAt) noteRequest({ receivedAt: trace.startedAt });
  if (trace.endedAt) noteRequest({ receivedAt: trace.endedAt });
  for (const cacheKey of trace.cacheKeys) noteRequest({ cacheKey });
  if (trace.authenticated) noteRequest({ authenticated: true });
  noteAsOf(trace.asOf);
}
