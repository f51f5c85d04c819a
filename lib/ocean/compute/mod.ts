/**
 * Compute-to-data on an Ocean node: start free jobs with a signed request
 * (checked against the environment first), list and follow them, download
 * their results safely.
 *
 * @module
 */

export * from "./types.ts";
export * from "./job_statuses.ts";
export * from "./job_failed_error.ts";
export * from "./start_free_compute.ts";
export {
  JOB_COLUMNS,
  JOB_RESULT_COLUMNS,
  SAVED_RESULT_COLUMNS,
  type SavedResult,
} from "./job_columns.ts";
export * from "./jobs.ts";
export * from "./wait_for_job.ts";
export * from "./download_results.ts";
export * from "./result_text.ts";
export * from "./job_control.ts";
