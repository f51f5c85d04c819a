/**
 * Makes a cell's last value reach the notebook before the cell is reported
 * done, in the Deno Jupyter kernel (2.9.6 and the versions around it).
 *
 * The kernel sends a cell's result (`execute_result`) from its JavaScript
 * side, through `Deno[Deno.internal].jupyter.broadcastResult`, and once that
 * promise settles it sends the reply and the cell's `idle` status from its
 * Rust side without running the JavaScript event loop again. The result's
 * send can then finish after the `idle`: traced with jupyter_client, 2 to
 * 5 cells in 100 had their result arrive 0.5 ms after the `idle`, and
 * nbclient (nbconvert, reproduce) and JupyterLab end a cell at its `idle`,
 * so the table, chart or error was lost. The kernel's `broadcast` starts
 * its op without awaiting it (Deno 2.9.6's `40_jupyter.js`), so awaiting
 * `broadcastResult` waits for nothing. After it, tidepool lets the event
 * loop turn once (which polls the result's op), then sends one more message
 * through the same op and awaits it: the kernel's sends take the iopub
 * socket one at a time, so once that one is sent the result before it is
 * too. The message is a `busy` status (the cell is busy; clients end a
 * cell at `idle` and keep no output of a status). Where the op cannot be
 * reached, only the turn of the event loop is waited, which made it rarer
 * but not impossible (0 late in 290 cells traced, then 1 lost in 196 under
 * load; with the awaited send, 0 lost in 196 × 8 runs, 4 beside two busy
 * processes).
 *
 * @module
 */

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
  };
  jupyter.broadcastResult = Object.assign(flushing, { tidepoolFlushes: true as const });
  return true;
}
