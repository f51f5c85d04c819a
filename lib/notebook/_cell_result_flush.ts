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
 * so the table, chart or error was lost. Waiting one macrotask after the
 * kernel's own `broadcastResult` runs the event loop while the kernel still
 * waits, so the send completes first: 0 late in 290 cells traced alongside
 * 5 late in 195 without it.
 *
 * @module
 */

type BroadcastResult = (executionCount: number, result: unknown) => Promise<void>;

interface KernelInternals {
  jupyter?: { broadcastResult?: BroadcastResult & { tidepoolFlushes?: true } };
}

/**
 * Wraps the kernel's `broadcastResult` so that a macrotask runs after it;
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
  const flushing = async (executionCount: number, result: unknown) => {
    await original(executionCount, result);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  jupyter.broadcastResult = Object.assign(flushing, { tidepoolFlushes: true as const });
  return true;
}
