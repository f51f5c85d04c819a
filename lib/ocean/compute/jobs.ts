import type { ColumnTable } from "arquero";
import type { HttpClient } from "../../http/client.ts";
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
   * `metrics` column as sent. The spec says such a request asks for a
   * signature but does not show how; a node that refuses says so in the error.
   */
  includeMetrics?: boolean;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.jobs}, on the node's HTTP client; documented there. */
export async function jobs(
  http: HttpClient,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  const list = await listJobs(http, consumerAddress(consumer), options);
  return buildTable(JOB_COLUMNS, list);
}

/** The body of {@linkcode OceanNode.jobResults}, on the node's HTTP client; documented there. */
export async function jobResults(
  http: HttpClient,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  const list = await listJobs(http, consumerAddress(consumer), options);
  const rows = list.flatMap((job) =>
    resultFiles(job).map((file) => ({ jobId: job.jobId, fullJobId: fullJobId(job), ...file }))
  );
  return buildTable(JOB_RESULT_COLUMNS, rows as JobResultRow[]);
}
