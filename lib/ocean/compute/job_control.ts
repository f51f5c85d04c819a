/**
 * A running job under the owner's hand: stop it (`PUT
 * /api/services/compute`, signed `stopCompute`) and follow its output as it
 * comes (`GET /api/services/computeStreamableLogs`, signed
 * `getComputeStreamableLogs`), as ocean-node serves them. Both take the job
 * id in either form; the node wants `<cluster hash>-<jobId>`, so a short id
 * is completed from the owner's job list.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import { HttpError, httpErrorFields, ProtocolError, TidepoolError } from "../../errors/errors.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner, consumerAddress } from "../_address.ts";
import { signedCall } from "../_signed_call.ts";
import { fullJobId, listJobs } from "./_jobs_list.ts";
import type { ComputeJob } from "./types.ts";

/** Options of {@linkcode OceanNode.stopCompute} and {@linkcode OceanNode.computeLogs}. */
export interface JobControlOptions {
  /** The job owner's signer. */
  signer: Signer;
  /** Cancels the request (for the logs: the stream too). */
  signal?: AbortSignal;
}

/** Options of {@linkcode OceanNode.computeLogs}. */
export interface ComputeLogsOptions extends JobControlOptions {
  /**
   * How long the stream may stay silent before it is cut, in ms; default
   * 10 minutes (an algorithm may print nothing for a long while).
   */
  idleTimeoutMs?: number;
}

/** Default silence allowed in a log stream: 10 minutes. */
export const DEFAULT_LOG_IDLE_MS = 10 * 60_000;

/** The body of {@linkcode OceanNode.job}, on the node's HTTP client; documented there. */
export async function jobById(
  http: HttpClient,
  consumer: string | Signer,
  jobId: string,
  signal?: AbortSignal,
): Promise<ComputeJob> {
  const owner = consumerAddress(consumer);
  if (typeof jobId !== "string" || jobId === "") {
    throw new TypeError("Invalid jobId: expected the job id the start returned");
  }
  const short = jobId.slice(jobId.indexOf("-") + 1);
  const jobs = await listJobs(http, owner, { signal });
  const job = jobs.find((j) =>
    j.jobId === jobId || j.jobId === short || j.jobId.endsWith(`-${short}`)
  );
  if (!job) {
    throw new TidepoolError(`Compute job ${jobId} is not listed for ${owner}`, {
      hint: "Check the job id and that the address is the job's owner (jobs(address) lists them)",
    });
  }
  return job;
}

/**
 * The job id the node's stop and log routes take: a long id as given, a
 * short one completed from the owner's job list (its environment's cluster
 * hash).
 */
async function nodeJobId(
  http: HttpClient,
  owner: string,
  jobId: string,
  signal?: AbortSignal,
): Promise<string> {
  if (typeof jobId === "string" && jobId.includes("-")) return jobId;
  return fullJobId(await jobById(http, owner, jobId, signal));
}

/** The body of {@linkcode OceanNode.stopCompute}, on the node's HTTP client; documented there. */
export async function stopCompute(
  http: HttpClient,
  jobId: string,
  options: JobControlOptions,
): Promise<ComputeJob> {
  const signer = checksummedSigner(options.signer);
  const id = await nodeJobId(http, signer.address, jobId, options.signal);
  const response = await signedCall(
    { http, signer, command: "stopCompute", action: `stop job ${jobId}`, signal: options.signal },
    (fields) =>
      http.request({
        method: "PUT",
        path: "/api/services/compute",
        query: { ...fields, jobId: id },
        idempotent: false,
        sensitive: true,
        signal: options.signal,
      }),
  );
  const jobs = response.json<unknown>();
  if (!Array.isArray(jobs)) {
    throw new ProtocolError(`Unexpected answer to the stop of job ${jobId}: expected an array`, {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  if (jobs.length === 0) {
    throw new TidepoolError(
      `Job ${jobId} was not stopped: the node has no such job of ${signer.address}`,
      { hint: "Check the job id and that the signer is the job's owner" },
    );
  }
  return jobs[0] as ComputeJob;
}

/** The body of {@linkcode OceanNode.computeLogs}, on the node's HTTP client; documented there. */
export async function* computeLogs(
  http: HttpClient,
  jobId: string,
  options: ComputeLogsOptions,
): AsyncGenerator<string, void, undefined> {
  const signer = checksummedSigner(options.signer);
  const id = await nodeJobId(http, signer.address, jobId, options.signal);
  const progress = http.progress(`computeLogs ${jobId}`, { unit: "lines" });
  let count = 0;
  try {
    const stream = await signedCall(
      {
        http,
        signer,
        command: "getComputeStreamableLogs",
        action: `follow the logs of job ${jobId}`,
        signal: options.signal,
      },
      (fields) =>
        http.stream({
          path: "/api/services/computeStreamableLogs",
          query: { ...fields, jobId: id },
          sensitive: true,
          timeoutMs: options.idleTimeoutMs ?? DEFAULT_LOG_IDLE_MS,
          signal: options.signal,
        }).catch((error) => {
          throw notRunning(error, jobId);
        }),
    );
    let rest = "";
    for await (const chunk of stream.body.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      const lines = rest.split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        progress.update(++count, { detail: line.slice(0, 80) });
        yield line;
      }
    }
    if (rest !== "") {
      progress.update(++count, { detail: rest.slice(0, 80) });
      yield rest;
    }
    progress.finish(`${count} lines`);
  } catch (error) {
    progress.fail(error instanceof Error ? error.name : "failed");
    throw error;
  }
}

/** A 404 of the log route says the job is not running: say what to do instead. */
function notRunning(error: unknown, jobId: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 404) return error;
  return new HttpError(
    `Cannot follow the logs of job ${jobId}: ${error.serverMessage ?? error.body}`,
    {
      ...httpErrorFields(error),
      hint:
        "The node streams logs only while the algorithm runs: before that wait (waitForJob), after it read the algorithmLog result with resultText",
    },
  );
}
