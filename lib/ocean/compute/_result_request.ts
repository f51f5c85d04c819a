/**
 * One signed `GET /api/services/computeResult` request, shared by the
 * download of result files and the reading of a small result as text.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import { HttpError, httpErrorFields, TidepoolError } from "../../errors/errors.ts";
import type { SignedFields } from "../sign_request.ts";
import type { Signer } from "../signer.ts";
import { fullJobId } from "./_jobs_list.ts";
import { signedCall } from "../_signed_call.ts";
import { jobPhase, statusLabel } from "./job_statuses.ts";
import type { ComputeJob } from "./types.ts";

/** Refuses a job that is not a listed job, or one still running. */
export function checkJobForResults(job: ComputeJob): void {
  if (!job || typeof job !== "object" || typeof job.jobId !== "string") {
    throw new TidepoolError(
      "Invalid job: expected a job as jobs(), waitForJob() or the start return it",
      {
        hint: "Pass the object waitForJob returned",
      },
    );
  }
  if (jobPhase(Number(job.status)) === "pending") {
    throw new TidepoolError(
      `Compute job ${job.jobId} has no results yet: status ${job.status} ${
        statusLabel(Number(job.status))
      }`,
      { hint: "Wait for it with waitForJob first and pass the job it returns" },
    );
  }
}

/**
 * Sends one signed result request through `send` with a fresh signature:
 * full job id, index = position in `results`.
 */
export function resultRequest<T>(
  http: HttpClient,
  signer: Signer,
  job: ComputeJob,
  index: number,
  send: (request: { path: string; query: Record<string, string | number> }) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const jobId = fullJobId(job);
  return signedCall(
    {
      http,
      signer,
      command: "getComputeResult",
      action: `read result ${index} of job ${job.jobId}`,
      signal,
    },
    async (fields: SignedFields) => {
      try {
        return await send({
          path: "/api/services/computeResult",
          query: { ...fields, jobId, index },
        });
      } catch (error) {
        if (error instanceof HttpError && /Invalid C2D Environment/i.test(error.body)) {
          throw new HttpError(
            `Cannot read result ${index} of job ${job.jobId}: the node does not know the environment of ${jobId}: Invalid C2D Environment`,
            {
              ...httpErrorFields(error),
              hint:
                "The job id must be <cluster hash>-<jobId> with the cluster hash of the job's environment; pass the job as the node listed it",
            },
          );
        }
        throw error;
      }
    },
  );
}
