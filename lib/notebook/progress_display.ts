/**
 * Progress shown inside the Deno Jupyter kernel: one display per task,
 * updated in place. The HTTP layer knows nothing of notebooks; clients pass
 * {@linkcode kernelProgress} to it as the sink for this environment.
 *
 * @module
 */

import { formatProgress, type ProgressSink } from "../http/progress.ts";
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
 * ```ts ignore
 * const node = new OceanNode(url, { progress: jupyterProgress(500) });
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
 * The progress sink clients pass to their HTTP client: the notebook display
 * inside the kernel, undefined elsewhere (the HTTP layer then picks a
 * terminal line or silence).
 *
 * @returns The sink for the kernel, or undefined.
 *
 * @example A client's defaults
 * ```ts
 * import { HttpClient } from "../http/client.ts";
 * const http = new HttpClient("https://example.org", {}, { progress: kernelProgress() });
 * console.log(http.baseUrl);
 * ```
 */
export function kernelProgress(): ProgressSink | undefined {
  return jupyterNamespace() ? jupyterProgress() : undefined;
}
