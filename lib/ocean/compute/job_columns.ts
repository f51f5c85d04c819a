/**
 * The columns of the compute tables: {@linkcode OceanNode.jobs},
 * {@linkcode OceanNode.jobResults} and {@linkcode OceanNode.downloadResults}.
 * A file of their own, apart from the code that reads jobs and saves results,
 * so that importing tidepool for the column names loads neither.
 *
 * @module
 */

import { toDate } from "../../table/convert.ts";
import { defineSchema, type TableSchema } from "../../table/schema.ts";
import { fullJobId } from "./_jobs_list.ts";
import { jobPhase, statusLabel } from "./job_statuses.ts";
import type { ComputeJob } from "./types.ts";
import type { JobResultRow, JobRow, SavedResultRow } from "../rows.ts";

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
export function resultFiles(job: ComputeJob): Record<string, unknown>[] {
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

/** One saved result file. */
export interface SavedResult {
  /** Position in the job's `results`. */
  index: number;
  /** Result type. */
  type: string;
  /** The name the node gave the file (untrusted, as sent). */
  filename: string;
  /** Where the file was saved: the folder joined with the safe name. */
  path: string;
  /** Bytes saved. */
  bytes: number;
  /** SHA-256 of the file. */
  sha256: string;
}

/** The columns of the {@linkcode OceanNode.downloadResults} table. */
export const SAVED_RESULT_COLUMNS: TableSchema<SavedResult, SavedResultRow> = defineSchema([
  { name: "index", type: "integer", description: "Position in the job's results" },
  {
    name: "type",
    type: "string",
    description: "output, algorithmLog, configurationLog, imageLog or publishLog",
  },
  { name: "filename", type: "string", description: "Name the node gave (as sent, untrusted)" },
  {
    name: "path",
    type: "string",
    description: "Where the file was saved (a safe name inside dir)",
  },
  { name: "bytes", type: "integer", description: "Bytes saved" },
  { name: "sha256", type: "string", description: "SHA-256 of the saved file" },
]);
