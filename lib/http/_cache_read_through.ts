/**
 * The record/replay cache in front of a request: a recorded answer is handed
 * back as a buffered response, and a live answer is written after it came,
 * marked when it is not worth replaying to a live client.
 *
 * @module
 */

import { cacheKey, type ResponseCache } from "./cache.ts";
import { type CachePolicy, worthStoring } from "./cache_policy.ts";
import type { PreparedRequest } from "./request.ts";
import { bufferedResponse, type HttpResponse } from "./response.ts";

/**
 * Writes seen so far per recording session (the cache options object the
 * clients were given: one object, one session) and service origin: a read
 * after a write is another request than the same read before it (its key
 * says how many writes came first), so a recording asks the server again
 * and a replay gives each read the answer it had. Clients given the same
 * cache options count together, as a notebook's clients do.
 */
const writesSeen = new WeakMap<object, Map<string, number>>();

function writesOf(cache: ResponseCache): Map<string, number> {
  let counts = writesSeen.get(cache.session);
  if (!counts) writesSeen.set(cache.session, counts = new Map());
  return counts;
}

/** The request keyed after the writes its service has seen in this session. */
export function afterWrites(cache: ResponseCache, prepared: PreparedRequest): PreparedRequest {
  const writes = writesOf(cache).get(prepared.url.origin) ?? 0;
  if (writes === 0) return prepared;
  return { ...prepared, cacheBody: `${prepared.cacheBody}\nafter writes: ${writes}` };
}

/** Counts a successful write to a service: its later reads are keyed apart. */
export function noteWrite(cache: ResponseCache, url: URL): void {
  const counts = writesOf(cache);
  counts.set(url.origin, (counts.get(url.origin) ?? 0) + 1);
}

/** The recorded answer of a request, or undefined when none is recorded. */
export async function cachedResponse(
  cache: ResponseCache,
  { method, url, cacheBody }: PreparedRequest,
): Promise<HttpResponse | undefined> {
  const cached = await cache.read({ method, url: url.toString(), body: cacheBody });
  if (!cached) return undefined;
  return bufferedResponse({
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
}

/** Records a live answer and sets its cache key. */
export async function recordResponse(
  cache: ResponseCache,
  policy: CachePolicy,
  { method, url, cacheBody }: PreparedRequest,
  response: HttpResponse,
): Promise<void> {
  response.cacheKey = await cacheKey({ method, url: url.toString(), body: cacheBody });
  // What is not an answer is still recorded, marked, so a replay retraces
  // this run exactly (the same restart after the same refused token); a
  // live client never gets it back and asks again.
  await cache.write({ method, url: url.toString(), body: cacheBody }, {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: response.bytes,
    recordedAt: response.receivedAt,
    key: response.cacheKey,
    replayOnly: !(await worthStoring(policy, response)),
  });
}
