/**
 * Every compute job status code of spec section 3, with a label and a phase.
 *
 * @module
 */

/** Where a status leaves a job. */
export type JobPhase = "pending" | "finished" | "failed";

/** One status code. */
export interface JobStatusInfo {
  /** The code. */
  code: number;
  /** A short label, as the spec names the state. */
  label: string;
  /** Whether the job still runs, finished (results available) or failed. */
  phase: JobPhase;
}

const TABLE: [number, string, JobPhase][] = [
  [0, "started", "pending"],
  [1, "queued", "pending"],
  [2, "expired in queue", "failed"],
  [10, "pulling image", "pending"],
  [11, "pull failed", "failed"],
  [12, "building image", "pending"],
  [13, "build failed", "failed"],
  [14, "vulnerable image", "failed"],
  [20, "configuring volumes", "pending"],
  [21, "volume creation failed", "failed"],
  [22, "container creation failed", "failed"],
  [30, "provisioning data", "pending"],
  [31, "data provisioning failed", "failed"],
  [32, "algorithm provisioning failed", "failed"],
  [33, "data upload failed", "failed"],
  [40, "running", "pending"],
  [41, "algorithm failed", "failed"],
  [42, "disk quota exceeded", "failed"],
  [50, "filtering results", "pending"],
  [60, "publishing results", "pending"],
  [61, "results fetch failed", "failed"],
  [62, "results upload failed", "failed"],
  [70, "finished", "finished"],
  // Observed: free jobs are reported at 71 once done, and their results are downloadable.
  [71, "settling", "finished"],
];

/**
 * Every status code of spec section 3, by code.
 *
 * @example Looking up a code
 * ```ts
 * console.log(JOB_STATUSES.get(41)?.label); // "algorithm failed"
 * ```
 */
export const JOB_STATUSES: ReadonlyMap<number, JobStatusInfo> = new Map(
  TABLE.map(([code, label, phase]) => [code, { code, label, phase }]),
);

/**
 * The phase of a status code. An unknown code counts as pending below 70
 * and as failed when it ends in 1 to 9 of a failure family; it is never
 * guessed to be finished.
 *
 * @param code The status code.
 * @returns The phase.
 *
 * @example Settling counts as finished
 * ```ts
 * console.log(jobPhase(71)); // "finished"
 * ```
 */
export function jobPhase(code: number): JobPhase {
  const known = JOB_STATUSES.get(code);
  if (known) return known.phase;
  // Codes the spec does not list: the families fail on x1..x9 (11, 21, 31, ...).
  return code % 10 !== 0 ? "failed" : "pending";
}

/**
 * The label of a status code, or `unknown status N`.
 *
 * @param code The status code.
 * @returns The label.
 *
 * @example A label
 * ```ts
 * console.log(statusLabel(10)); // "pulling image"
 * ```
 */
export function statusLabel(code: number): string {
  return JOB_STATUSES.get(code)?.label ?? `unknown status ${code}`;
}
