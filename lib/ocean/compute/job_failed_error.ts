import { TidepoolError } from "../../errors/errors.ts";
import { statusLabel } from "./job_statuses.ts";
import type { ComputeJob } from "./types.ts";

/**
 * A compute job ended with a failure status (spec section 3). The job is
 * kept, so its logs can still be read.
 *
 * @example Reading why a job failed
 * ```ts
 * const error = new JobFailedError({
 *   owner: "0x0000000000000000000000000000000000000001", jobId: "abc", did: null,
 *   environment: "c-e", dateCreated: "1", dateFinished: "2", status: 41,
 *   statusText: "Algorithm failed", terminationDetails: { exitCode: 137, OOMKilled: true },
 * });
 * console.log(error.code, error.exitCode, error.oomKilled); // 41 137 true
 * ```
 */
export class JobFailedError extends TidepoolError {
  /** The error kind, `"JobFailedError"`, as shown in messages and stack traces. */
  override name = "JobFailedError";
  /** The status code. */
  readonly code: number;
  /** The node's status text. */
  readonly statusText: string;
  /** The algorithm's exit code, when it ran. */
  readonly exitCode: number | null;
  /** Whether the algorithm was killed for lack of memory. */
  readonly oomKilled: boolean;
  /** The short job id. */
  readonly jobId: string;
  /** The job as last listed (its `results` may hold logs). */
  readonly job: ComputeJob;

  /**
   * Creates the error from the job, naming its status, exit code and any out-of-memory kill.
   *
   * @param job The failed job as the node listed it.
   */
  constructor(job: ComputeJob) {
    const exitCode = typeof job.terminationDetails?.exitCode === "number"
      ? job.terminationDetails.exitCode
      : null;
    const oomKilled = job.terminationDetails?.OOMKilled === true;
    const notes = [`status ${job.status}`];
    if (exitCode !== null) notes.push(`exit code ${exitCode}`);
    if (oomKilled) notes.push("killed for lack of memory");
    const logs = (job.results ?? []).some((r) => /log/i.test(String(r.type)));
    super(
      `Compute job ${job.jobId} failed: ${statusLabel(job.status)} (${notes.join(", ")})`,
      {
        details: job.statusText,
        hint:
          (oomKilled
            ? "Ask for more ram (within the free maximum) or make the algorithm use less memory. "
            : "") +
          (logs
            ? "Read the algorithm log with resultText(error.job, index) or downloadResults(error.job, ...)"
            : "Check the algorithm and the dataset, then start a new job"),
      },
    );
    this.code = job.status;
    this.statusText = job.statusText;
    this.exitCode = exitCode;
    this.oomKilled = oomKilled;
    this.jobId = job.jobId;
    this.job = job;
  }
}
