/**
 * The sandbox node's compute-to-data and file-access endpoints: signed,
 * nonce-checked, with jobs that move through real statuses and publish real
 * results. `startOceanSandbox` mounts them over its own catalogue.
 *
 * @module
 */

export * from "./create_compute_handlers.ts";
export * from "./job_engine.ts";
export * from "./nonce_store.ts";
export * from "./trial_environment.ts";
export { SANDBOX_NODE_ADDRESS, SANDBOX_NODE_KEY } from "./_publish_routes.ts";
