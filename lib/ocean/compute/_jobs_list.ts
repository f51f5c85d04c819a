/**
 * Reads the job list (`GET /api/services/compute`, unsigned) and the full
 * job id `computeResult` needs.
 *
 * @module
 */

import type { HttpClient, HttpResponse } from "../../http/client.ts";
import { ProtocolError } from "../../errors/errors.ts";
import type { AuthToken } from "../auth_token.ts";
import { signedCall } from "../_signed_call.ts";
import type { Signer } from "../signer.ts";
import type { ComputeJob } from "./types.ts";

/**
 * Lists the jobs of an address, or one job. With `includeMetrics` the spec
 * asks for a signature: the request is signed (`getComputeStatus`) by
 * `signer`, or carries `token` instead; without metrics it is unsigned.
 */
export async function listJobs(
  http: HttpClient,
  consumer: string,
  options: {
    jobId?: string;
    agreementId?: string;
    includeMetrics?: boolean;
    signer?: Signer;
    token?: AuthToken;
    signal?: AbortSignal;
  } = {},
): Promise<ComputeJob[]> {
  const query = {
    consumerAddress: consumer,
    jobId: options.jobId,
    agreementId: options.agreementId,
    includeMetrics: options.includeMetrics ? "true" : undefined,
  };
  const request = { path: "/api/services/compute", cacheable: false, signal: options.signal };
  let response: HttpResponse;
  if (options.includeMetrics && options.token) {
    response = await http.request({
      ...request,
      query,
      headers: { authorization: options.token.header(http.baseUrl) },
      sensitive: true,
    });
  } else if (options.includeMetrics && options.signer) {
    const signer = options.signer;
    response = await signedCall(
      {
        http,
        signer,
        command: "getComputeStatus",
        action: "list compute jobs with metrics",
        signal: options.signal,
      },
      (fields) => http.request({ ...request, query: { ...query, ...fields }, sensitive: true }),
    );
  } else {
    response = await http.request({ ...request, query });
  }
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
