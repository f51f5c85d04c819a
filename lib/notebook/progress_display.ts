/**
 * Progress shown inside the Deno Jupyter kernel: one display per task,
 * updated in place. Adapters know nothing of notebooks: they report to the
 * process-wide default sink of `lib/progress`, where this folder installs
 * {@linkcode kernelProgress} when it runs in the kernel.
 *
 * @module
 */

import { formatProgress, type ProgressSink } from "../progress/progress.ts";
import { escapeHtml } from "./_format_cell.ts";

/** The part of the kernel's `Deno.jupyter` namespace that tidepool's displays use. */
export interface JupyterNamespace {
  /** Shows a MIME bundle, or updates the display with the same `display_id`. */
  display(
    bundle: Record<string, string>,
    options: { raw: boolean; update?: boolean; display_id?: string },
  ): Promise<void> | void;
}

/**
 * The kernel's `Deno.jupyter`, or undefined outside the kernel.
 *
 * @returns The namespace inside `deno jupyter`, else undefined.
 *
 * @example Checking for the kernel
 * ```ts
 * console.log(jupyterNamespace() === undefined); // true outside a notebook
 * ```
 */
export function jupyterNamespace(): JupyterNamespace | undefined {
  // Outside `deno jupyter` the getter throws instead of answering undefined.
  try {
    return (Deno as unknown as { jupyter?: JupyterNamespace }).jupyter;
  } catch {
    return undefined;
  }
}

/**
 * A sink that shows one display per task inside the Deno Jupyter kernel and
 * updates it in place, throttled; the final state is always drawn, so an
 * executed notebook keeps it.
 *
 * @param throttleMs Least time between two redraws of a running task.
 * @returns The sink (it draws nothing outside the kernel).
 *
 * @example Progress in a notebook cell
 * ```ts
 * import { OceanNode } from "../ocean/ocean_node.ts";
 * const node = new OceanNode("https://node.example", { progress: jupyterProgress(500) });
 * console.log(node.http.baseUrl);
 * ```
 */
export function jupyterProgress(throttleMs = 250): ProgressSink {
  const shown = new Map<string, number>();
  return (event) => {
    const jupyter = jupyterNamespace();
    if (!jupyter) return;
    const now = Date.now();
    const final = event.state !== "running";
    const last = shown.get(event.id);
    if (!final && last !== undefined && now - last < throttleMs) return;
    shown.set(event.id, now);
    if (final) shown.delete(event.id);
    const text = formatProgress(event);
    const fraction = event.total ? Math.min(1, event.done / event.total) : undefined;
    const colour = event.state === "failed" ? "#c0392b" : "#2e86c1";
    const bar = fraction === undefined
      ? ""
      : `<progress value="${
        fraction.toFixed(3)
      }" max="1" style="width:16em;accent-color:${colour}"></progress> `;
    const html = `<div style="font-family:monospace">${bar}${escapeHtml(text)}</div>`;
    void jupyter.display({ "text/plain": text, "text/html": html }, {
      raw: true,
      display_id: event.id,
      update: last !== undefined,
    });
  };
}

/**
 * The progress sink for this environment: the notebook display inside the
 * kernel, undefined elsewhere (the progress port then picks a terminal line
 * or silence). Importing tidepool in the kernel installs it as the default.
 *
 * @returns The sink for the kernel, or undefined.
 *
 * @example Installing the kernel display as the default sink
 * ```ts
 * import { setDefaultProgress } from "../progress/progress.ts";
 * const sink = kernelProgress();
 * if (sink) setDefaultProgress(sink);
 * console.log(sink === undefined); // true outside a notebook
 * ```
 */
export function kernelProgress(): ProgressSink | undefined {
  return jupyterNamespace() ? jupyterProgress() : undefined;
}
