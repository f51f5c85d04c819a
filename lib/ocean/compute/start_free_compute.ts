import type { HttpClient } from "../../http/client.ts";
import { TidepoolError } from "../../errors/errors.ts";
import type { Signer } from "../signer.ts";
import { checksummedSigner } from "../_address.ts";
import { precheckFreeCompute } from "./_precheck.ts";
import { sendStart } from "./_start_answer.ts";
import type {
  ComputeAssetRef,
  ComputeEnvironmentLimits,
  ComputeJob,
  ResourceRequest,
} from "./types.ts";

/** Parameters of {@linkcode OceanNode.startFreeCompute}. */
export interface StartFreeComputeParameters {
  /** The wallet that signs; it must be on the environment's free allowlist. */
  signer: Signer;
  /** The environment id, `<cluster hash>-<environment hash>`. */
  environment: string;
  /** The algorithm asset and its compute service. */
  algorithm: ComputeAssetRef;
  /** The datasets and their compute services. */
  datasets: ComputeAssetRef[];
  /** Resources, each within the free min and max (the node picks the minimum otherwise). */
  resources?: ResourceRequest[];
  /** Longest run in seconds, within the free min and max. */
  maxJobDuration?: number;
  /** Where the node should store the output (node specific). */
  output?: Record<string, unknown>;
  /** Free-form metadata stored with the job. */
  metadata?: Record<string, unknown>;
  /** Other addresses that may list and download the job. */
  additionalViewers?: string[];
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** What {@linkcode OceanNode.startFreeCompute} returns: the jobs the node started (usually one). */
export type StartFreeComputeReturnType = ComputeJob[];

/** The body of {@linkcode OceanNode.startFreeCompute}, on the node's HTTP client, with the environments already read; documented there. */
export async function startFreeCompute(
  http: HttpClient,
  parameters: StartFreeComputeParameters,
  environments: readonly ComputeEnvironmentLimits[],
): Promise<StartFreeComputeReturnType> {
  const signer = checksummedSigner(parameters.signer);
  const check = precheckFreeCompute({ ...parameters, address: signer.address }, environments);
  if (check.violations.length > 0) {
    throw new TidepoolError(`Cannot start compute job: ${check.violations.join("; ")}`, {
      hint: check.environment?.free
        ? "Change the request to fit the free tier of the environment (see computeEnvironments)"
        : "Pick an environment that computeEnvironments lists with a free tier",
    });
  }
  for (const note of check.notes) http.warn(note);

  const body = {
    environment: parameters.environment,
    algorithm: parameters.algorithm,
    datasets: parameters.datasets,
    // Under the node's own ids: a GPU asked for as `gpu` is sent as the node names it.
    resources: check.resources,
    maxJobDuration: parameters.maxJobDuration,
    output: parameters.output,
    metadata: parameters.metadata,
    additionalViewers: parameters.additionalViewers,
  };
  return await sendStart(http, signer, {
    command: "freeStartCompute",
    action: "start a free compute job",
    path: "/api/services/freeCompute",
    body,
    signal: parameters.signal,
  });
}
