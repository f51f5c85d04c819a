import type { HttpClient } from "../../http/client.ts";
import { TidepoolError, TimeoutError } from "../../errors/errors.ts";
import { type PollOptions, pollUntil } from "../../http/poll_until.ts";
import type { Signer } from "../signer.ts";
import { consumerAddress } from "../_address.ts";
import { listJobs } from "./_jobs_list.ts";
import { JobFailedError } from "./job_failed_error.ts";
import { jobPhase, statusLabel } from "./job_statuses.ts";
import type { ComputeJob } from "./types.ts";

/**
 * Default poll interval: 5 s, with the start and the downloads well under the
 * 30 requests a minute deployed nodes allow one client.
 */
export const DEFAULT_POLL_MS = 5_000;

/** Default limit: 30 minutes (free jobs run at most 10 minutes, plus the queue). */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

/** Polls in a row that may not list a just-started job before it counts as unknown. */
const MISSING_POLLS = 3;

/**
 * Options of {@linkcode OceanNode.waitForJob}: the poll options every wait shares.
 * `pollMs` defaults to 5,000 (a 429 hint from the node is honoured on top),
 * `timeoutMs` to 30 minutes; `signal` cancels the pause and the poll in flight.
 */
export type WaitForJobOptions = PollOptions;

/** The body of {@linkcode OceanNode.waitForJob}, on the node's HTTP client; documented there. */
export async function waitForJob(
  http: HttpClient,
  consumer: string | Signer,
  jobId: string,
  options: WaitForJobOptions = {},
): Promise<ComputeJob> {
  const address = consumerAddress(consumer);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const progress = http.progress(`waitForJob ${jobId}`, { unit: "polls" });
  let polls = 0;
  let missing = 0;
  let last: ComputeJob | undefined;
  try {
    return await pollUntil(async (signal) => {
      const list = await listJobs(http, address, { jobId, signal });
      polls++;
      // Either may be the long form: a start answers `<cluster hash>-<jobId>`, the list the short id.
      const job = list.find((j) =>
        j.jobId === jobId || j.jobId.endsWith(`-${jobId}`) || jobId.endsWith(`-${j.jobId}`)
      );
      if (!job) {
        missing++;
        if (missing >= MISSING_POLLS && last === undefined) {
          throw new TidepoolError(`Compute job ${jobId} is not listed for ${address}`, {
            hint:
              "Check the job id (the short form the start returned) and the owner address, checksummed as it was sent",
          });
        }
        progress.update(polls, { detail: "not listed yet" });
        return undefined;
      }
      missing = 0;
      last = job;
      const phase = jobPhase(Number(job.status));
      const detail = `${job.status} ${job.statusText || statusLabel(Number(job.status))}`;
      progress.update(polls, { detail });
      if (phase === "failed") throw new JobFailedError(job);
      if (phase !== "finished") return undefined;
      progress.finish(detail);
      return { value: job };
    }, {
      pollMs: options.pollMs ?? DEFAULT_POLL_MS,
      timeoutMs,
      signal: options.signal,
      timedOut: () => {
        const state = last
          ? `status ${last.status} ${last.statusText || statusLabel(Number(last.status))}`
          : "not listed";
        return new TimeoutError(
          `Compute job ${jobId} did not finish within ${timeoutMs} ms: ${state}`,
          {
            hint:
              "The job keeps running on the node; wait again with a larger timeoutMs, or list it with jobs()",
          },
        );
      },
    });
  } catch (error) {
    progress.fail(error instanceof Error ? error.name : "failed");
    throw error;
  }
}
