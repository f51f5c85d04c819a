/**
 * A promise raced with a signal, for work that is shared (and so cannot
 * be cancelled by one caller) or that ignores its signal.
 *
 * @module
 */

/**
 * Rejects with the signal's reason as soon as it aborts (at once when it
 * already has), even if the promise goes on; else settles as the promise.
 *
 * @param promise The work.
 * @param signal The caller's signal; none: the promise itself.
 * @returns The promise's value.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {}); // its failure is no longer anyone's
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
