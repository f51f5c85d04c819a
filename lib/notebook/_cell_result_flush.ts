/**
 * Makes a cell's last value reach the notebook before the cell is reported
 * done, in the Deno Jupyter kernel (2.9.6 and the versions around it).
 *
 * The kernel sends a cell's result (`execute_result`) from the thread that
 * runs the cell, through `Deno[Deno.internal].jupyter.broadcastResult`,
 * whose `op_jupyter_broadcast` only puts it on a channel; the kernel's own
 * thread takes it off and publishes it (signing it first), while the same
 * thread, once `broadcastResult` has returned, sends the reply and the
 * cell's `idle` status by another path (Deno 2.9.6's `jupyter_kernel.js`:
 * `iopubDrainer` and `publishStatus("idle")`). Nothing orders the two: a
 * result published after the `idle` is dropped by nbclient (nbconvert,
 * reproduce) and JupyterLab, which end a cell at its `idle`, and one
 * published after the next cell began carries that cell's parent. Traced
 * with jupyter_client, 2 to 5 cells in 100 lost their result so. After the
 * kernel's function, tidepool lets the event loop turn, sends one more
 * message through the same op (a `busy` status, which clients keep no
 * output of; on kernels whose op sends before it resolves, awaiting it
 * orders the result before it), and then holds the cell for
 * {@linkcode RESULT_PUBLISH_MS}, the time the kernel's thread takes to
 * publish a message even on a busy machine. The cell cannot see the
 * publishing itself, so this narrows the race rather than closing it:
 * without the hold, 1 lost in 196 × 8 runs of 196 cells was seen under load
 * (`tests/notebooks/bare_values_test.ts`).
 *
 * @module
 */

/**
 * How long a cell with a value waits for the kernel's thread to publish it:
 * signing and sending a message takes it well under a millisecond, so this
 * is headroom for a machine whose cores are busy, and a wait a user does not
 * notice after a cell.
 */
export const RESULT_PUBLISH_MS = 40;

type BroadcastResult = (executionCount: number, result: unknown) => Promise<void>;

type BroadcastOp = (
  messageType: string,
  content: unknown,
  metadata: unknown,
  buffers: unknown[],
) => Promise<void>;

interface KernelInternals {
  jupyter?: { broadcastResult?: BroadcastResult & { tidepoolFlushes?: true } };
  core?: { ops?: { op_jupyter_broadcast?: BroadcastOp } };
}

/**
 * Wraps the kernel's `broadcastResult` so that its result is sent before it returns;
 * once per kernel. Does nothing where the kernel has no such function (any
 * other Deno, or `reproduce`'s stand-in `Deno.jupyter`).
 *
 * @returns Whether the kernel's function is wrapped.
 */
export function flushCellResults(): boolean {
  let internals: KernelInternals | undefined;
  try {
    const deno = Deno as unknown as { internal?: symbol } & Record<symbol, unknown>;
    internals = deno.internal ? deno[deno.internal] as KernelInternals : undefined;
  } catch {
    return false;
  }
  const jupyter = internals?.jupyter;
  const original = jupyter?.broadcastResult;
  if (!jupyter || typeof original !== "function") return false;
  if (original.tidepoolFlushes) return true;
  const send = internals?.core?.ops?.op_jupyter_broadcast;
  const flushing = async (executionCount: number, result: unknown) => {
    await original(executionCount, result);
    if (result === undefined) return;
    // One turn of the event loop polls the result's op (it is not polled when started); then
    // a send of our own, awaited, queues behind it on the iopub socket.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (typeof send === "function") await send("status", { execution_state: "busy" }, {}, []);
    await new Promise((resolve) => setTimeout(resolve, RESULT_PUBLISH_MS));
  };
  jupyter.broadcastResult = Object.assign(flushing, { tidepoolFlushes: true as const });
  return true;
}
