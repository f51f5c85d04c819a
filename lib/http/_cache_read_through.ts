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

/** The recorded answer of a request, or undefined when none is recorded. */
export async function cachedResponse(
  cache: ResponseCache,
  { method, url, cacheBody }: PreparedRequest,
): Promise<HttpResponse | undefined> {
  const cached = await cache.read(method, url.toString(), cacheBody);
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
