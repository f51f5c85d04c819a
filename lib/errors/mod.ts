/**
 * The ground floor: the `TidepoolError` hierarchy every folder throws, and
 * the redaction of secrets every message, log line and file goes through.
 *
 * @module
 */

export * from "./errors.ts";
export * from "./redact.ts";
