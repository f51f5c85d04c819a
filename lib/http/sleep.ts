/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason when
 * it aborts first.
 *
 * @param ms How long to wait.
 * @param signal Cancels the wait.
 *
 * @example Waiting briefly
 * ```ts
 * await sleep(1);
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
