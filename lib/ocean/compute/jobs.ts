import type { ColumnTable } from "arquero";
import type { HttpClient } from "../../http/client.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { AuthToken } from "../auth_token.ts";
import { buildTable } from "../../table/mod.ts";
import type { Signer } from "../signer.ts";
import { consumerAddress } from "../_address.ts";
import { fullJobId, listJobs } from "./_jobs_list.ts";
import { JOB_COLUMNS, JOB_RESULT_COLUMNS, resultFiles } from "./job_columns.ts";
import type { JobResultRow } from "../rows.ts";

/** Options of {@linkcode OceanNode.jobs}. */
export interface JobsOptions {
  /** Only this job (short id). */
  jobId?: string;
  /** Only the jobs of this agreement (the order of a paid job). */
  agreementId?: string;
  /**
   * Ask the node for the jobs' metrics (`includeMetrics=true`), kept in the
   * `metrics` column as sent. The spec asks for a signature on such a
   * request: pass the consumer as a signer (it signs `getComputeStatus`), or
   * a `token` from `createAuthToken`; an address alone is refused before
   * anything is sent.
   */
  includeMetrics?: boolean;
  /** A bearer token of the consumer (`createAuthToken`), in place of a signature for metrics. */
  token?: AuthToken;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.jobs}, on the node's HTTP client; documented there. */
export async function jobs(
  http: HttpClient,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  const list = await listJobs(http, consumerAddress(consumer), credentials(consumer, options));
  return buildTable(JOB_COLUMNS, list);
}

/** The body of {@linkcode OceanNode.jobResults}, on the node's HTTP client; documented there. */
export async function jobResults(
  http: HttpClient,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  const list = await listJobs(http, consumerAddress(consumer), credentials(consumer, options));
  const rows = list.flatMap((job) =>
    resultFiles(job).map((file) => ({ jobId: job.jobId, fullJobId: fullJobId(job), ...file }))
  );
  return buildTable(JOB_RESULT_COLUMNS, rows as JobResultRow[]);
}

/**
 * The list options with the signer or token a metrics request needs; an
 * address alone is refused, and a token must be the consumer's.
 */
function credentials(
  consumer: string | Signer,
  options: JobsOptions,
): JobsOptions & { signer?: Signer } {
  if (!options.includeMetrics) return options;
  const address = consumerAddress(consumer);
  if (options.token) {
    if (options.token.address.toLowerCase() !== address.toLowerCase()) {
      throw new TidepoolError(
        `Cannot list jobs with metrics: the token is for ${options.token.address}, not ${address}`,
        { hint: "Create a token for the consumer's own wallet with createAuthToken" },
      );
    }
    return options;
  }
  if (typeof consumer === "string") {
    throw new TidepoolError(
      `Cannot list jobs with metrics for ${address}: the node asks for a signature`,
      {
        hint:
          "Pass the consumer's signer instead of its address (jobs(signer, { includeMetrics: true })), " +
          "or a token from createAuthToken as the token option",
      },
    );
  }
  return { ...options, signer: consumer };
}
