/**
 * The HTTP layer every tidepool adapter goes through: timeouts, retries with
 * backoff, per-host pacing, typed errors, redaction, a record/replay cache,
 * a response size cap and progress. The errors, redaction, progress sinks
 * and call traces it uses live on the floors below (`tidepool/errors`,
 * `tidepool/progress`, `lib/table`); they are re-exported here as before.
 *
 * @module
 */

export * from "../errors/errors.ts";
export * from "./client.ts";
export { errorFromResponse, isChallenge, serverMessage } from "./error_from_response.ts";
export * from "./cache.ts";
export { answersOnly, type CachePolicy, neverStored, SUCCESSFUL_ANSWERS } from "./cache_policy.ts";
export type { ClientDefaults, ClientOptions } from "./options.ts";
export * from "../progress/progress.ts";
export { redact, redactParams, registerSecret } from "../errors/redact.ts";
export { type CallTrace, noteAsOf, traceCall } from "../table/call_trace.ts";
export type { RetryOptions } from "./retry.ts";
export { sleep } from "./sleep.ts";
export { DEFAULT_MAX_DOWNLOAD_BYTES } from "./response.ts";
export * from "./poll_until.ts";
export * from "./unknown_shape.ts";
