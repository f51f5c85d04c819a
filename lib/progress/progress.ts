/**
 * Progress of long work (paged fetches, polling, uploads): the port every
 * adapter reports to. One small interface; a client's `progress` option
 * names the sink, and without one the process-wide default serves: the
 * sink installed with {@linkcode setDefaultProgress} (the notebook folder
 * installs its kernel display there when it runs in the Deno Jupyter
 * kernel), else a redrawing line on stderr when it is a terminal, and
 * silence otherwise. Adapters never know which display draws.
 *
 * @module
 */

import { redact } from "../errors/redact.ts";
import { inlineText } from "../errors/terminal_text.ts";

/** One report of a task's progress. */
export interface ProgressEvent {
  /** Unique id of the task, stable across its events. */
  id: string;
  /** What the task does, e.g. `searchAssets`. */
  label: string;
  /** Units done so far. */
  done: number;
  /** Units in all, when known. */
  total?: number;
  /** What a unit is: `rows`, `pages`, `bytes`, `polls`. */
  unit: string;
  /** A short note: the page number, a job status text. */
  detail?: string;
  /** Whether the task runs, finished, or failed. */
  state: "running" | "done" | "failed";
}

/** Receives progress events. Any function of this shape can be passed as `progress`. */
export type ProgressSink = (event: ProgressEvent) => void;

/** What a client option `progress` accepts: a sink, `true`/`"auto"` (choose), `false` (silent). */
export type ProgressOption = ProgressSink | boolean | "auto";

/** A running task that reports progress. */
export interface ProgressTask {
  /** Sets the units done (and the total, when it became known). */
  update(done: number, options?: { total?: number; detail?: string }): void;
  /** Reports the task finished. */
  finish(detail?: string): void;
  /** Reports the task failed. */
  fail(detail?: string): void;
}

let taskCounter = 0;

/**
 * Starts a task on a sink.
 *
 * @param sink Where events go.
 * @param label What the task does.
 * @param options The unit and the total, when known.
 * @returns The task handle.
 *
 * @example Reporting pages to a custom sink
 * ```ts
 * const events: ProgressEvent[] = [];
 * const task = startProgress((e) => events.push(e), "download", { unit: "pages", total: 2 });
 * task.update(1);
 * task.update(2);
 * task.finish();
 * console.log(events.at(-1)?.state); // "done"
 * ```
 */
export function startProgress(
  sink: ProgressSink,
  label: string,
  options: { unit?: string; total?: number } = {},
): ProgressTask {
  const id = `tidepool-progress-${Date.now().toString(36)}-${++taskCounter}`;
  label = redact(label);
  let done = 0;
  let total = options.total;
  let detail: string | undefined;
  const unit = options.unit ?? "rows";
  const emit = (state: ProgressEvent["state"]) =>
    sink({ id, label, done, total, unit, detail, state });
  emit("running");
  return {
    update(value, more = {}) {
      done = value;
      if (more.total !== undefined) total = more.total;
      if (more.detail !== undefined) detail = redact(more.detail);
      emit("running");
    },
    finish(note) {
      if (note !== undefined) detail = redact(note);
      emit("done");
    },
    fail(note) {
      if (note !== undefined) detail = redact(note);
      emit("failed");
    },
  };
}

/** A sink that drops every event. */
export const silentProgress: ProgressSink = () => {};

/** One line of text for an event: `searchAssets: 1,200 / 2,000 rows (60%) page 3`. */
export function formatProgress(event: ProgressEvent): string {
  const count = event.done.toLocaleString("en-US");
  const total = event.total === undefined ? "" : ` / ${event.total.toLocaleString("en-US")}`;
  const percent = event.total ? ` (${Math.floor((100 * event.done) / event.total)}%)` : "";
  const state = event.state === "done" ? " done" : event.state === "failed" ? " failed" : "";
  const detail = event.detail ? ` ${event.detail}` : "";
  return `${event.label}: ${count}${total} ${event.unit}${percent}${detail}${state}`;
}

/**
 * A sink that redraws one line on stderr, throttled; the last state of each
 * task ends with a newline. Every control character of the line (an escape
 * sequence in a server's status text, a line end) is shown as a `\u` escape.
 */
export function terminalProgress(throttleMs = 100): ProgressSink {
  const encoder = new TextEncoder();
  const lastDraw = new Map<string, number>();
  return (event) => {
    const now = Date.now();
    const final = event.state !== "running";
    if (!final && now - (lastDraw.get(event.id) ?? 0) < throttleMs) return;
    lastDraw.set(event.id, now);
    if (final) lastDraw.delete(event.id);
    // A label or detail a server chose (a job's status text) is shown inert, on this one line.
    const line = `\r\x1b[2K${inlineText(formatProgress(event))}${final ? "\n" : ""}`;
    Deno.stderr.writeSync(encoder.encode(line));
  };
}

let installedDefault: ProgressSink | undefined;

/**
 * Installs the process-wide default sink: the one a client reports to when
 * its `progress` option leaves the choice open. The notebook folder installs
 * its kernel display here; a terminal bar or a web page can do the same.
 *
 * @param sink The new default, or undefined to go back to the terminal line or silence.
 * @returns The default it replaced, if one was installed.
 *
 * @example Collecting the progress of every client that is given no sink
 * ```ts
 * const events: ProgressEvent[] = [];
 * const earlier = setDefaultProgress((event) => events.push(event));
 * startProgress(progressSink(undefined), "download").finish();
 * setDefaultProgress(earlier);
 * console.log(events.at(-1)?.state); // "done"
 * ```
 */
export function setDefaultProgress(sink: ProgressSink | undefined): ProgressSink | undefined {
  const earlier = installedDefault;
  installedDefault = sink;
  return earlier;
}

/**
 * The sink for where the code runs: the one passed in, else the installed
 * default (the notebook display in the kernel), a terminal line, or nothing.
 *
 * @param preferred The sink to use when there is one for this environment.
 * @returns The sink.
 */
export function autoProgress(preferred?: ProgressSink): ProgressSink {
  if (preferred) return preferred;
  if (installedDefault) return installedDefault;
  try {
    if (Deno.stderr.isTerminal()) return terminalProgress();
  } catch {
    // stderr may be unavailable in some embedders; stay silent then
  }
  return silentProgress;
}

/**
 * Resolves a `progress` option into a sink.
 *
 * @param option The client option.
 * @param preferred The sink for this environment, used when the option leaves the choice open.
 * @returns The sink.
 */
export function progressSink(
  option: ProgressOption | undefined,
  preferred?: ProgressSink,
): ProgressSink {
  if (typeof option === "function") return option;
  if (option === false) return silentProgress;
  return autoProgress(preferred);
}
