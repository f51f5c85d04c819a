import type { ColumnTable } from "arquero";
import type { HttpClient } from "../../http/client.ts";
import { buildTable } from "../../table/mod.ts";
import { saveStream } from "../download/_save_stream.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner } from "../_address.ts";
import { checkJobForResults, resultRequest } from "./_result_request.ts";
import type { ComputeJob, ComputeResultType } from "./types.ts";
import { SAVED_RESULT_COLUMNS, type SavedResult } from "./job_columns.ts";

/** Options of {@linkcode OceanNode.downloadResults}. */
export interface DownloadResultsOptions {
  /** The job owner's (or an additional viewer's) signer. */
  signer: Signer;
  /** The folder to save into (created when missing). */
  dir: string;
  /** Only results of these types; default all. */
  types?: readonly (ComputeResultType | string)[];
  /**
   * Most bytes of one result whose node declares no length; default 4 GiB
   * (`DEFAULT_MAX_DOWNLOAD_BYTES`). A declared length is the cap of its own file.
   */
  maxBytes?: number;
  /** Cancels the downloads, to the last byte. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.downloadResults}, on the node's HTTP client; documented there. */
export async function downloadResults(
  http: HttpClient,
  job: ComputeJob,
  options: DownloadResultsOptions,
): Promise<ColumnTable> {
  checkJobForResults(job);
  const signer = checksummedSigner(options.signer);
  const wanted = (job.results ?? [])
    .map((result, index) => ({ result, index }))
    .filter(({ result }) => !options.types || options.types.includes(String(result.type)));
  const progress = http.progress(`downloadResults ${job.jobId}`, {
    unit: "files",
    total: wanted.length,
  });
  const saved: SavedResult[] = [];
  try {
    for (const { result, index } of wanted) {
      // http.stream checks the status before handing over a byte of the body;
      // the signing lane is left once the node answered, and the body saved after.
      const stream = await resultRequest(http, signer, job, index, (request) =>
        http.stream({
          ...request,
          idempotent: false,
          sensitive: true,
          signal: options.signal,
          maxBytes: options.maxBytes,
        }), options.signal);
      const file = await saveStream(stream.body, {
        dir: options.dir,
        filename: result.filename,
        fallback: `result-${index}`,
        expectedBytes: Number(result.filesize) || 0,
        what: `result ${index} (${result.type}) of job ${job.jobId}`,
        signal: options.signal,
      });
      saved.push({
        index,
        type: String(result.type),
        filename: String(result.filename),
        path: file.path,
        bytes: file.bytes,
        sha256: file.sha256,
      });
      progress.update(saved.length, { detail: String(result.type) });
    }
  } catch (error) {
    progress.fail(error instanceof Error ? error.name : "failed");
    throw error;
  }
  progress.finish(`${saved.length} files in ${options.dir}`);
  return buildTable(SAVED_RESULT_COLUMNS, saved);
}
