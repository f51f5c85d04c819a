/**
 * The lanes of a windowed harvest: a few workers taking windows from a
 * queue that grows while they work (a window found too long is cut, and
 * its parts are queued), each time the one `pick` prefers.
 *
 * @module
 */

/**
 * Runs `work` over the queue, at most `limit` at once, until the queue is
 * empty and no work under way can add to it. The first failure takes no
 * more items and calls `onFail` (to stop the work under way); the queue
 * settles only when every item taken has settled, so no work outlives it
 * (a lane still writing its window's spool or the state file after the
 * harvest has failed would race the rerun that resumes it).
 *
 * @param queue The items; `work` may push more.
 * @param limit How many run at once.
 * @param pick The index of the item to take next.
 * @param work What to do with an item.
 * @param onFail Called once, with the first failure, while other work may still run.
 * @throws The first failure, once all work has settled.
 */
export async function drainQueue<T>(
  queue: T[],
  limit: number,
  pick: (queue: readonly T[]) => number,
  work: (item: T) => Promise<void>,
  onFail: (error: unknown) => void = () => {},
): Promise<void> {
  let busy = 0;
  let failed = false;
  let failure: unknown;
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
        if (!failed) {
          failed = true;
          failure = error;
          onFail(error);
        }
      } finally {
        busy--;
        const woken = wake;
        changed = new Promise<void>((resolve) => wake = resolve);
        woken();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failed) throw failure;
}
