/**
 * What free and paid compute starts share: the signed request sent once,
 * the node's job list answer read, and a refused start turned into an error
 * that says whether the job may have started anyway.
 *
 * @module
 */

import type { HttpClient, HttpResponse } from "../../http/client.ts";
import { HttpError, httpErrorFields, ProtocolError, TimeoutError } from "../../errors/errors.ts";
import { signedCall } from "../_signed_call.ts";
import type { SignedCommand } from "../sign_request.ts";
import type { Signer } from "../signer.ts";
import type { ComputeJob } from "./types.ts";

/** One compute start as {@linkcode sendStart} sends it. */
export interface ComputeStart {
  /** The signed command, `freeStartCompute` or `startCompute`. */
  command: SignedCommand;
  /** What the start does, for messages: `start a free compute job`. */
  action: string;
  /** `/api/services/freeCompute` or `/api/services/compute`. */
  path: string;
  /** The body besides the signed fields. */
  body: Record<string, unknown>;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/**
 * Signs and sends a compute start (never retried: a job may have started)
 * and reads the jobs the node answered.
 */
export async function sendStart(
  http: HttpClient,
  signer: Signer,
  start: ComputeStart,
): Promise<ComputeJob[]> {
  const { command, action, path, body, signal } = start;
  const response = await signedCall(
    { http, signer, command, action, signal },
    async (fields) => {
      try {
        return await http.request({
          method: "POST",
          path,
          json: { ...fields, ...body },
          idempotent: false,
          sensitive: true,
          signal,
        });
      } catch (error) {
        throw startError(error);
      }
    },
  );
  return startedJobs(response, path.slice(path.lastIndexOf("/") + 1));
}

/** The jobs a start answered (an array, or one job object). */
function startedJobs(response: HttpResponse, endpoint: string): ComputeJob[] {
  const jobs = response.json<unknown>();
  const list = Array.isArray(jobs) ? jobs : jobs && typeof jobs === "object" ? [jobs] : null;
  if (!list || list.some((job) => !job || typeof job.jobId !== "string")) {
    throw new ProtocolError(`Unexpected ${endpoint} answer: expected an array of jobs`, {
      details: response.text(),
      hint: "The job may have started: list it with jobs(consumer) before starting another",
    });
  }
  return list as ComputeJob[];
}

/** A failed start, with the node's JSON-string or plain-text body as the message. */
function startError(error: unknown): unknown {
  if (error instanceof TimeoutError) {
    return new TimeoutError(`No answer to the compute start in time: ${error.shortMessage}`, {
      hint: "The job may have started anyway: list it with jobs(consumer) before starting another",
      cause: error,
    });
  }
  if (!(error instanceof HttpError) || error.status === 401 || error.status === 403) return error;
  const said = error.serverMessage ?? error.body;
  const fields = { ...httpErrorFields(error), serverMessage: said };
  if (error.status === 429) {
    return new HttpError(`Cannot start compute job: rate limited: ${said}`, {
      ...fields,
      hint: "Wait as the node says, then start it again (it is never retried automatically)",
    });
  }
  return new HttpError(`Cannot start compute job: ${said || `HTTP ${error.status}`}`, {
    ...fields,
    hint: error.status >= 500
      ? "The node failed; the job may still have started: check jobs(consumer) before retrying"
      : "Fix the request as the node says and start it again",
  });
}
