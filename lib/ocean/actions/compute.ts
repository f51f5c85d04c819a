/**
 * The Ocean node's compute environments, free jobs and job control as free
 * functions of the client (viem's actions): `jobs(node, consumer, options)`.
 * `OceanNode`'s methods of the same names call these; each loads the code
 * that does the work on its first call, so importing tidepool stays quick.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { checkCall } from "../_option_rules.ts";
import type { ComputeEnvironment } from "../types.ts";
import type { Signer } from "../signer.ts";
import type { ComputeJob } from "../compute/types.ts";
import type { StartFreeComputeParameters } from "../compute/start_free_compute.ts";
import type { JobsOptions } from "../compute/jobs.ts";
import type { WaitForJobOptions } from "../compute/wait_for_job.ts";
import type { ComputeLogsOptions, JobControlOptions } from "../compute/job_control.ts";
import type { DownloadResultsOptions } from "../compute/download_results.ts";
import type { ResultTextOptions } from "../compute/result_text.ts";
import { type NodeHandle, nodeTable } from "./_node.ts";
import { checkAlgorithmPolicy, defaultChainId } from "./_compute_checks.ts";

/** The code of the free jobs and their control, loaded on the first call that needs it. */
const computeCode = () => import("../compute/mod.ts");

/**
 * The node's compute environments of one chain, as
 * {@linkcode OceanNode.computeEnvironments} reads them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param chainId The chain id, such as 11155111.
 * @returns The environments, as the node describes them.
 * @example The free tier's longest job
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { computeEnvironments } from "./compute.ts";
 * await using sandbox = startOceanSandbox();
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const [env] = await computeEnvironments(node, 11155111);
 * console.log(env.free?.maxJobDuration);
 * ```
 */
export async function computeEnvironments(
  node: NodeHandle,
  chainId: number,
): Promise<ComputeEnvironment[]> {
  return await (await import("../_environments.ts")).fetchEnvironments(node.http, chainId);
}

/**
 * The compute environments as a table, as {@linkcode OceanNode.environmentsTable} makes it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param chainId The chain id.
 * @returns One row per environment.
 * @example Free limits
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { environmentsTable } from "./compute.ts";
 * await using sandbox = startOceanSandbox();
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const envs = await environmentsTable(node, 11155111);
 * console.log(envs.select("id", "maxJobDuration", "cpuMax").objects());
 * ```
 */
export async function environmentsTable(node: NodeHandle, chainId: number): Promise<ColumnTable> {
  return await nodeTable(
    node,
    { operation: "environmentsTable", params: { chainId } },
    async () =>
      (await import("../_environments.ts")).environmentsToTable(
        await computeEnvironments(node, chainId),
      ),
  );
}

/**
 * Starts a free compute job, as {@linkcode OceanNode.startFreeCompute} does:
 * checked against the node's live environments first, sent once.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `signer`, `environment`, `algorithm`, `datasets`, limits, `chainId`.
 * @returns The started jobs (usually one).
 * @example A free job
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { startFreeCompute } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, {
 *   signer, environment, algorithm, datasets: [dataset], maxJobDuration: 60,
 * });
 * console.log(job.jobId);
 * ```
 */
export async function startFreeCompute(
  node: NodeHandle,
  parameters: StartFreeComputeParameters & { chainId?: number },
): Promise<ComputeJob[]> {
  checkCall("OceanNode.startFreeCompute", parameters);
  const chainId = parameters.chainId ?? await defaultChainId(node);
  await checkAlgorithmPolicy(node, parameters);
  // Read live: the allowlist and the running free jobs of this moment decide.
  const { liveEnvironments } = await import("../compute/_live_environments.ts");
  const environments = await liveEnvironments(node.http, chainId, parameters.signal);
  return await (await computeCode()).startFreeCompute(node.http, parameters, environments);
}

/**
 * A consumer's compute jobs as a table, as {@linkcode OceanNode.jobs} lists them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param consumer The address (or signer) whose jobs to list.
 * @param options One job id, one agreement, `includeMetrics` (signed), a token, a signal.
 * @returns One row per job.
 * @example The jobs of a wallet
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { jobs, startFreeCompute } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * console.log((await jobs(node, signer.address)).select("jobId", "statusLabel").objects());
 * ```
 */
export async function jobs(
  node: NodeHandle,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  checkCall("OceanNode.jobs", options);
  return await nodeTable(
    node,
    { operation: "jobs", params: { consumer, ...options } },
    async () => (await computeCode()).jobs(node.http, consumer, options),
  );
}

/**
 * The result files of a consumer's jobs, one row per file, as
 * {@linkcode OceanNode.jobResults} lists them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param consumer The address (or signer) whose jobs to list.
 * @param options One job id, one agreement, a signal.
 * @returns One row per result file.
 * @example The outputs of a finished job
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { jobResults, startFreeCompute, waitForJob } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * await waitForJob(node, { consumer: signer.address, jobId: job.jobId, pollMs: 100 });
 * const files = await jobResults(node, signer.address);
 * console.log(files.filter((d) => d.type === "output").objects());
 * ```
 */
export async function jobResults(
  node: NodeHandle,
  consumer: string | Signer,
  options: JobsOptions = {},
): Promise<ColumnTable> {
  checkCall("OceanNode.jobResults", options);
  return await nodeTable(
    node,
    { operation: "jobResults", params: { consumer, ...options } },
    async () => (await computeCode()).jobResults(node.http, consumer, options),
  );
}

/** What {@linkcode waitForJob} takes: the job's owner and id, and how to poll. */
export interface WaitForJobParameters extends WaitForJobOptions {
  /** The job owner's address (or signer). */
  consumer: string | Signer;
  /** The job id, short or long. */
  jobId: string;
}

/**
 * Polls a job until it finishes, as {@linkcode OceanNode.waitForJob} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `consumer`, `jobId`, and `pollMs`, `timeoutMs`, `signal`.
 * @returns The finished job.
 * @example Waiting for a free job
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { startFreeCompute, waitForJob } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * const done = await waitForJob(node, { consumer: signer, jobId: job.jobId, pollMs: 100 });
 * console.log(done.results?.map((r) => r.filename));
 * ```
 */
export async function waitForJob(
  node: NodeHandle,
  parameters: WaitForJobParameters,
): Promise<ComputeJob> {
  const { consumer, jobId, ...options } = parameters;
  checkCall("OceanNode.waitForJob", options);
  return await (await computeCode()).waitForJob(node.http, consumer, jobId, options);
}

/** What {@linkcode job} takes: the job's owner and id, and a signal. */
export interface JobParameters {
  /** The job owner's address (or signer). */
  consumer: string | Signer;
  /** The job id, short or long. */
  jobId: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/**
 * One job of a consumer by id, as {@linkcode OceanNode.job} reads it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `consumer`, `jobId`, `signal`.
 * @returns The job as the node lists it now.
 * @example The status of a job just started
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { job, startFreeCompute } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [started] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * const now = await job(node, { consumer: signer.address, jobId: started.jobId });
 * console.log(now.status, now.statusText);
 * ```
 */
export async function job(node: NodeHandle, parameters: JobParameters): Promise<ComputeJob> {
  const { consumer, jobId, ...options } = parameters;
  checkCall("OceanNode.job", options);
  return await (await computeCode()).jobById(node.http, consumer, jobId, options.signal);
}

/**
 * Stops a job, signed by its owner, as {@linkcode OceanNode.stopCompute} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param jobId The job id, short or long.
 * @param options The owner's `signer`, a signal.
 * @returns The job as the node answered the stop.
 * @example Stopping a job that runs too long
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { startFreeCompute, stopCompute, waitForJob } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 60_000 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * await stopCompute(node, job.jobId, { signer });
 * ```
 */
export async function stopCompute(
  node: NodeHandle,
  jobId: string,
  options: JobControlOptions,
): Promise<ComputeJob> {
  checkCall("OceanNode.stopCompute", options);
  return await (await computeCode()).stopCompute(node.http, jobId, options);
}

/**
 * Follows a running job's output line by line, as {@linkcode OceanNode.computeLogs} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param jobId The job id, short or long.
 * @param options The owner's `signer`, `idleTimeoutMs`, a signal.
 * @returns The lines, as they come.
 * @example Printing a job's output as it runs
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { computeLogs, startFreeCompute } from "./compute.ts";
 * // A clock moved by hand to the end of step 4 (1 s each): the algorithm runs, its lines are out.
 * const clock = { now: 1_700_000_000_000 };
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 1_000, now: () => clock.now } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * clock.now += 4_990;
 * for await (const line of computeLogs(node, job.jobId, { signer })) console.log(line);
 * ```
 */
export async function* computeLogs(
  node: NodeHandle,
  jobId: string,
  options: ComputeLogsOptions,
): AsyncGenerator<string> {
  checkCall("OceanNode.computeLogs", options);
  yield* (await computeCode()).computeLogs(node.http, jobId, options);
}

/**
 * Saves the result files of a finished job into a folder, as
 * {@linkcode OceanNode.downloadResults} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param job The job as `waitForJob` or the job list returned it.
 * @param options The `signer`, the folder `dir`, the result `types`, a signal.
 * @returns A table of the saved files: `index, type, filename, path, bytes, sha256`.
 * @example Saving every result
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { downloadResults, startFreeCompute, waitForJob } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * const done = await waitForJob(node, { consumer: signer, jobId: job.jobId, pollMs: 100 });
 * const dir = await Deno.makeTempDir();
 * console.log((await downloadResults(node, done, { signer, dir })).objects());
 * ```
 */
export async function downloadResults(
  node: NodeHandle,
  job: ComputeJob,
  options: DownloadResultsOptions,
): Promise<ColumnTable> {
  checkCall("OceanNode.downloadResults", options);
  return await nodeTable(
    node,
    {
      operation: "downloadResults",
      params: { jobId: job?.jobId, dir: options?.dir, types: options?.types },
    },
    async () => (await computeCode()).downloadResults(node.http, job, options),
  );
}

/** What {@linkcode resultText} takes: the job, which result, and the signer. */
export interface ResultTextParameters extends ResultTextOptions {
  /** The job as the job list returned it (also `JobFailedError.job`). */
  job: ComputeJob;
  /** The position of the result in `job.results`. */
  index: number;
}

/**
 * Reads one small result as text, as {@linkcode OceanNode.resultText} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `job`, `index`, `signer`, a size cap `maxBytes`, a signal.
 * @returns The result's text.
 * @example The algorithm's log
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * import { resultText, startFreeCompute, waitForJob } from "./compute.ts";
 * await using sandbox = startOceanSandbox({ compute: { stepMs: 20 } });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * const { dataset, algorithm, environment } = sandbox.computeExample();
 * const [job] = await startFreeCompute(node, { signer, environment, algorithm, datasets: [dataset] });
 * const done = await waitForJob(node, { consumer: signer, jobId: job.jobId, pollMs: 100 });
 * const index = done.results!.findIndex((r) => r.type === "algorithmLog");
 * console.log(await resultText(node, { job: done, index, signer }));
 * ```
 */
export async function resultText(
  node: NodeHandle,
  parameters: ResultTextParameters,
): Promise<string> {
  const { job, index, ...options } = parameters;
  checkCall("OceanNode.resultText", options);
  return await (await computeCode()).resultText(node.http, job, index, options);
}
