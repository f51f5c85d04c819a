/**
 * The sandbox ResourceSync source: a handler and a standalone server.
 *
 * @module
 */

export * from "./resourcesync_source.ts";
export * from "./start_resourcesync_sandbox.ts";
