/**
 * What the command shows while it works, on a terminal only: one line on
 * standard error that redraws with the rows and pages of the read under way
 * and the requests in flight, counted by the fetch every client is given.
 *
 * @module
 */

import { formatProgress, type ProgressEvent, type ProgressSink } from "../progress/progress.ts";
import { redact } from "../errors/redact.ts";

/** Counts the requests the clients send, and those still waiting for an answer. */
export class RequestMeter {
  /** Requests sent so far. */
  sent = 0;
  /** Requests sent whose answer has not arrived. */
  inFlight = 0;
  /** Called on every change. */
  onChange: () => void = () => {};

  /** A fetch that counts, for the clients' `fetch` option. */
  readonly fetch: typeof fetch = async (input, init) => {
    this.sent++;
    this.inFlight++;
    this.onChange();
    try {
      return await globalThis.fetch(input, init);
    } finally {
      this.inFlight--;
      this.onChange();
    }
  };
}

/** Writes text to a stream at once (progress must not wait behind data). */
export type WriteText = (text: string) => void;

/** The progress line: a sink for the clients and a redraw on each request. */
export interface ProgressLine {
  /** The clients' `progress` option. */
  sink: ProgressSink;
  /** Clears the line, so that the next text starts at the left. */
  clear(): void;
}

/**
 * A progress line on a terminal: `harvest ListRecords: 1,200 rows page 3 · 2 in flight · 5 requests`,
 * redrawn at most every `throttleMs` (the last state of a read is always drawn).
 *
 * @param write Writes to standard error.
 * @param meter The request counter.
 * @param throttleMs Least time between redraws.
 * @returns The sink and the clear.
 */
export function progressLine(
  write: WriteText,
  meter: RequestMeter,
  throttleMs = 100,
): ProgressLine {
  let latest: ProgressEvent | undefined;
  let drawnAt = 0;
  let shown = false;
  const draw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - drawnAt < throttleMs) return;
    drawnAt = now;
    const read = latest ? `${formatProgress(latest)} · ` : "";
    const requests = `${meter.inFlight} in flight · ${meter.sent.toLocaleString("en-US")} requests`;
    write(`\r\x1b[2K${redact(read + requests)}`);
    shown = true;
  };
  meter.onChange = () => draw(false);
  return {
    sink: (event) => {
      latest = event;
      draw(event.state !== "running");
    },
    clear: () => {
      if (shown) write("\r\x1b[2K");
      shown = false;
    },
  };
}
