import type { HttpClient } from "../../http/client.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner } from "../_address.ts";
import { checkJobForResults, resultRequest } from "./_result_request.ts";
import type { ComputeJob } from "./types.ts";

/** Options of {@linkcode OceanNode.resultText}. */
export interface ResultTextOptions {
  /** The job owner's (or an additional viewer's) signer. */
  signer: Signer;
  /** Largest result read into memory; default 1 MiB. */
  maxBytes?: number;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.resultText}, on the node's HTTP client; documented there. */
export async function resultText(
  http: HttpClient,
  job: ComputeJob,
  index: number,
  options: ResultTextOptions,
): Promise<string> {
  checkJobForResults(job);
  const results = job.results ?? [];
  if (!Number.isInteger(index) || index < 0 || index >= results.length) {
    throw new TidepoolError(
      `Invalid result index ${index}: job ${job.jobId} has ${results.length} results`,
      { hint: "Give the position of the result in job.results, from 0" },
    );
  }
  const signer = checksummedSigner(options.signer);
  const response = await resultRequest(
    http,
    signer,
    job,
    index,
    (request) =>
      http.request({
        ...request,
        idempotent: false,
        sensitive: true,
        maxBytes: options.maxBytes ?? 1024 * 1024,
        signal: options.signal,
      }),
    options.signal,
  );
  if (response.bytes.byteLength === 0 && Number(results[index].filesize) > 0) {
    throw new TidepoolError(
      `Result ${index} of job ${job.jobId} is empty although the node listed ${
        results[index].filesize
      } bytes`,
      { hint: "The node may not have the file any more: try again later" },
    );
  }
  return response.text();
}
