import type { ColumnTable } from "arquero";
import type { HttpClient } from "../../http/client.ts";
import { toDate } from "../../table/convert.ts";
import { buildTable, defineSchema, type TableSchema } from "../../table/mod.ts";
import type { Signer } from "../signer.ts";
import { consumerAddress } from "../_address.ts";
import { fullJobId, listJobs } from "./_jobs_list.ts";
import { jobPhase, statusLabel } from "./job_statuses.ts";
import type { ComputeJob } from "./types.ts";
import type { JobResultRow, JobRow } from "../rows.ts";

/** A node time ("0" or empty before it happened) as a Date, or null. */
function nodeTime(value: unknown): Date | null {
  if (value === null || value === undefined || value === "" || Number(value) === 0) return null;
  return toDate(value);
}

/** The columns of the {@linkcode OceanNode.jobs} table. */
export const JOB_COLUMNS: TableSchema<ComputeJob, JobRow> = defineSchema([
  { name: "jobId", type: "string", description: "Short job id, as the job list gives it" },
  {
    name: "fullJobId",
    type: "string",
    get: (job) => fullJobId(job),
    description: "`<cluster hash>-<jobId>`, the id computeResult needs",
  },
  { name: "environment", type: "string", description: "Environment id" },
  { name: "did", type: "string", description: "First dataset's DID" },
  { name: "owner", type: "string", description: "Address that started the job" },
  { name: "status", type: "integer", description: "Status code (spec section 3)" },
  { name: "statusText", type: "string", description: "The node's status text" },
  {
    name: "statusLabel",
    type: "string",
    get: (job) => statusLabel(Number(job.status)),
    description: "Label of the status code",
  },
  {
    name: "isFinished",
    type: "boolean",
    get: (job) => jobPhase(Number(job.status)) === "finished",
    description: "Finished with results available (70, or 71 settling)",
  },
  {
    name: "isFailed",
    type: "boolean",
    get: (job) => jobPhase(Number(job.status)) === "failed",
    description: "Ended with a failure code",
  },
  { name: "dateCreated", type: "date", get: (job) => nodeTime(job.dateCreated) },
  { name: "dateFinished", type: "date", get: (job) => nodeTime(job.dateFinished) },
  {
    name: "algoStart",
    type: "date",
    get: (job) => nodeTime(job.algoStartTimestamp),
    description: "When the algorithm started",
  },
  {
    name: "algoStop",
    type: "date",
    get: (job) => nodeTime(job.algoStopTimestamp),
    description: "When the algorithm stopped",
  },
  { name: "maxJobDuration", type: "integer", description: "Longest run, seconds" },
  {
    name: "exitCode",
    type: "integer",
    path: "terminationDetails.exitCode",
    description: "Algorithm exit code",
  },
  {
    name: "oomKilled",
    type: "boolean",
    path: "terminationDetails.OOMKilled",
    description: "Killed for lack of memory",
  },
  {
    name: "resultCount",
    type: "integer",
    get: (job) => Array.isArray(job.results) ? job.results.length : 0,
    description: "Result files published",
  },
  {
    name: "results",
    type: "array",
    get: (job) => resultFiles(job),
    description:
      "The result files: `{index, filename, filesize, type}` each (empty before they exist)",
  },
  { name: "isFree", type: "boolean", description: "Whether the job is free" },
  {
    name: "resources",
    type: "array",
    description: "Resources granted: `{id, amount}` each (cpu, ram, disk, gpu)",
  },
  { name: "agreementId", type: "string", description: "The order (agreement) of a paid job" },
  {
    name: "metrics",
    type: "object",
    description: "What the node sent for includeMetrics (shape not shown by the spec)",
  },
]);

/** The result files of a job, each with its position (the index computeResult takes). */
function resultFiles(job: ComputeJob): Record<string, unknown>[] {
  if (!Array.isArray(job.results)) return [];
  return job.results.map((file, index) => ({
    index,
    filename: file?.filename ?? null,
    filesize: file?.filesize ?? null,
    type: file?.type ?? null,
  }));
}

/** The columns of the {@linkcode OceanNode.jobResults} table. */
export const JOB_RESULT_COLUMNS: TableSchema<JobResultRow, JobResultRow> = defineSchema([
  { name: "jobId", type: "string", description: "Short job id" },
  { name: "fullJobId", type: "string", description: "`<cluster hash>-<jobId>`" },
  {
    name: "index",
    type: "integer",
    description: "Position in the job's results (computeResult's index)",
  },
  { name: "filename", type: "string", description: "The name the node gives the file (untrusted)" },
  { name: "filesize", type: "integer", description: "Size in bytes" },
  {
    name: "type",
    type: "string",
    description: "`output`, `algorithmLog`, `configurationLog`, ...",
  },
]);

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
