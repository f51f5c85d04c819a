/**
 * The lanes of a windowed harvest: a few workers taking windows from a
 * queue that grows while they work (a window found too long is cut, and
 * its parts are queued), each time the one `pick` prefers.
 *
 * @module
 */

/**
 * Runs `work` over the queue, at most `limit` at once, until the queue is
 * empty and no work under way can add to it. The first failure stops the
 * rest.
 *
 * @param queue The items; `work` may push more.
 * @param limit How many run at once.
 * @param pick The index of the item to take next.
 * @param work What to do with an item.
 */
export async function drainQueue<T>(
  queue: T[],
  limit: number,
  pick: (queue: readonly T[]) => number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let busy = 0;
  let failed = false;
  let wake = () => {};
  let changed = new Promise<void>((resolve) => wake = resolve);
  const worker = async () => {
    while (!failed) {
      if (queue.length === 0) {
        if (busy === 0) return;
        await changed; // another worker may queue more
        continue;
      }
      const [item] = queue.splice(pick(queue), 1);
      busy++;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        busy--;
        const woken = wake;
        changed = new Promise<void>((resolve) => wake = resolve);
        woken();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}
