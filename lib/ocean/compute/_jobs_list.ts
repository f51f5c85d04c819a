/**
 * Reads the job list (`GET /api/services/compute`, unsigned) and the full
 * job id `computeResult` needs.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import { ProtocolError } from "../../errors/errors.ts";
import type { ComputeJob } from "./types.ts";

/** Lists the jobs of an address, or one job. */
export async function listJobs(
  http: HttpClient,
  consumer: string,
  options: {
    jobId?: string;
    agreementId?: string;
    includeMetrics?: boolean;
    signal?: AbortSignal;
  } = {},
): Promise<ComputeJob[]> {
  const response = await http.request({
    path: "/api/services/compute",
    query: {
      consumerAddress: consumer,
      jobId: options.jobId,
      agreementId: options.agreementId,
      includeMetrics: options.includeMetrics ? "true" : undefined,
    },
    cacheable: false,
    signal: options.signal,
  });
  const jobs = response.json<unknown>();
  if (!Array.isArray(jobs)) {
    throw new ProtocolError("Unexpected compute job list: expected an array", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  return jobs as ComputeJob[];
}

/**
 * `<cluster hash>-<jobId>`: the cluster hash is the part of `environment`
 * before the first `-` (spec section 4, compute rule 4). An id that already
 * carries the prefix is left as is.
 */
export function fullJobId(job: Pick<ComputeJob, "jobId" | "environment">): string {
  const cluster = String(job.environment ?? "").split("-")[0];
  if (!cluster || job.jobId.startsWith(`${cluster}-`)) return job.jobId;
  return `${cluster}-${job.jobId}`;
}
