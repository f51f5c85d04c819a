/**
 * Progress of long work: the sink types every adapter reports to, the
 * terminal line, and the process-wide default a display installs.
 *
 * @module
 */

export * from "./progress.ts";
