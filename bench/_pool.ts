/**
 * Runs `work` over `items` with at most `concurrency` in flight: how a floor
 * fetches the same pages as a client that pipelines them, with the same
 * concurrency, so the ratio measures the client and not the pipelining.
 */
export async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
