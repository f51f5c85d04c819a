/**
 * The origins of services this process started itself (the sandboxes).
 * Pacing exists to be polite to public services; a client talking to a
 * server of its own process needs none, so its defaults drop the interval.
 *
 * @module
 */

const ORIGINS = new Map<string, number>();

/**
 * Marks a URL's origin as a service this process runs, until the returned
 * function is called.
 *
 * @param url The service's address.
 * @returns A function that removes the mark.
 *
 * @example A local server marked while it runs
 * ```ts
 * const unmark = markLocalService("http://127.0.0.1:8123");
 * console.log(isLocalService("http://127.0.0.1:8123/api")); // true
 * unmark();
 * ```
 */
export function markLocalService(url: string): () => void {
  const origin = new URL(url).origin;
  ORIGINS.set(origin, (ORIGINS.get(origin) ?? 0) + 1);
  let marked = true;
  return () => {
    if (!marked) return;
    marked = false;
    const left = (ORIGINS.get(origin) ?? 1) - 1;
    if (left > 0) ORIGINS.set(origin, left);
    else ORIGINS.delete(origin);
  };
}

/**
 * Whether a URL is served by this process (a running sandbox).
 *
 * @param url The address.
 * @returns True while a service of this process serves its origin.
 *
 * @example
 * ```ts
 * console.log(isLocalService("https://node.example")); // false
 * ```
 */
export function isLocalService(url: string): boolean {
  try {
    return ORIGINS.has(new URL(url).origin);
  } catch {
    return false;
  }
}
