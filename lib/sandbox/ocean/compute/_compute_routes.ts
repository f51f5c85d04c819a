/**
 * The compute endpoints of the sandbox node (spec section 4, Compute): one
 * handler per endpoint.
 *
 * @module
 */

import type { Ddo } from "../../../ocean/ddo.ts";
import { type ComputeContext, json, jsonBody, text } from "./_context.ts";
import { joinCsvParts } from "./_computation.ts";
import type { JobInput } from "./job_engine.ts";
import { settleEndedJobs } from "./_escrow_payment.ts";
import { clusterHash, engineJobId } from "./_job_ids.ts";
import { isAddress } from "viem";

/** A dataset or algorithm as a request carries it. */
export type Ref = {
  documentId?: unknown;
  serviceId?: unknown;
  algocustomdata?: unknown;
  transferTxId?: unknown;
};

function computeService(ddo: Ddo | undefined, serviceId: unknown) {
  return ddo?.services.find((s) => s.id === serviceId && s.type === "compute");
}

/**
 * The body of a free or paid start once it is JSON, holds the environment,
 * algorithm and datasets (and any `extra` field) and is signed for
 * `action`; otherwise the node's refusal. A `startFailure` fault answers
 * for it once the body is read.
 */
export async function signedStartBody(
  context: ComputeContext,
  request: Request,
  extra: readonly string[],
  action: string,
): Promise<Record<string, unknown> | Response> {
  const body = await jsonBody(request);
  if (!body) return text(400, "Invalid JSON body");
  if (context.faults.startFailure) {
    return text(context.faults.startFailure.status, context.faults.startFailure.body);
  }
  for (const field of ["environment", "algorithm", "datasets", ...extra]) {
    if (body[field] === undefined) return json(400, `Missing required field: ${field}`);
  }
  const check = await context.nonces.verify(body, action);
  return check.ok ? body : text(check.status, check.text);
}

/** POST /api/services/freeCompute */
export async function freeComputeHandler(
  context: ComputeContext,
  request: Request,
): Promise<Response> {
  const body = await signedStartBody(context, request, [], "freeStartCompute");
  if (body instanceof Response) return body;
  const owner = String(body.consumerAddress);
  const environment = context.environments.find((env) => env.id === body.environment);
  if (!environment) return json(400, "Invalid C2D Environment");
  const free = environment.free;
  if (!free.access.addresses.some((a) => a.toLowerCase() === owner.toLowerCase())) {
    return json(403, `Address ${owner} is not allowed to run free compute jobs`);
  }
  const assets = checkAssets(context, body);
  if (assets instanceof Response) return assets;
  const limits = checkLimits(free, body);
  if (limits instanceof Response) return limits;
  // As ocean-node: free.maxJobs bounds the free jobs running in the environment, of anyone.
  if (context.engine.activeInEnvironment(environment.id) >= free.maxJobs) {
    return json(400, "Too many running free jobs");
  }
  return startJob(context, body, environment.id, assets, limits);
}

/** The algorithm and datasets of a start request, each compute service admitting the algorithm. */
export interface CheckedAssets {
  algorithm: Ref;
  algoDdo: Ddo;
  datasets: Ref[];
}

/** The request's algorithm and datasets, or the node's 400 when one is unknown or refused. */
export function checkAssets(
  context: ComputeContext,
  body: Record<string, unknown>,
): CheckedAssets | Response {
  const algorithm = body.algorithm as Ref;
  const algoDdo = context.asset(String(algorithm?.documentId));
  if (!algoDdo || algoDdo.metadata.type !== "algorithm") {
    return json(400, `Algorithm ${String(algorithm?.documentId)} not found`);
  }
  const datasets = Array.isArray(body.datasets) ? body.datasets as Ref[] : [];
  if (datasets.length === 0) return json(400, "No datasets given");
  for (const ref of datasets) {
    const ddo = context.asset(String(ref.documentId));
    const service = computeService(ddo, ref.serviceId);
    if (!ddo || !service) {
      return json(
        400,
        `Dataset ${String(ref.documentId)} has no compute service ${String(ref.serviceId)}`,
      );
    }
    const trusted = service.compute?.publisherTrustedAlgorithms ?? [];
    if (
      trusted.length > 0 && !trusted.some((t) => (t as { did?: string }).did === algoDdo.id) &&
      !service.compute?.allowRawAlgorithm
    ) {
      return json(400, `Algorithm ${algoDdo.id} is not trusted by dataset ${ddo.id}`);
    }
  }
  return { algorithm, algoDdo, datasets };
}

/** What a tier allows: resources and duration (the free tier's, or the environment's own). */
export interface TierLimits {
  resources: { id: string; min: number; max: number }[];
  minJobDuration: number;
  maxJobDuration: number;
}

/** The granted resources and duration, or the node's 400 when a request is outside the limits. */
export function checkLimits(
  limits: TierLimits,
  body: Record<string, unknown>,
): { resources: { id: string; amount: number }[]; duration: number } | Response {
  const requested = Array.isArray(body.resources)
    ? body.resources as { id: string; amount: number }[]
    : [];
  const resources = limits.resources.map((r) => ({
    id: r.id,
    amount: requested.find((q) => q.id === r.id)?.amount ?? r.min,
  }));
  for (const q of requested) {
    const limit = limits.resources.find((r) => r.id === q.id);
    if (!limit) return json(400, `Resource ${q.id} is not available`);
    if (q.amount > limit.max || q.amount < limit.min) {
      return json(
        400,
        `Resource ${q.id}: requested ${q.amount}, allowed ${limit.min} to ${limit.max}`,
      );
    }
  }
  const duration = body.maxJobDuration === undefined
    ? limits.minJobDuration
    : Number(body.maxJobDuration);
  if (duration < limits.minJobDuration || duration > limits.maxJobDuration) {
    return json(
      400,
      `maxJobDuration must be between ${limits.minJobDuration} and ${limits.maxJobDuration}`,
    );
  }
  return { resources, duration };
}

/** Starts the job over the datasets' own files and answers with it. */
export function startJob(
  context: ComputeContext,
  body: Record<string, unknown>,
  environment: string,
  assets: CheckedAssets,
  limits: { resources: { id: string; amount: number }[]; duration: number },
  payment?: JobInput["payment"],
  jobId?: string,
): Response {
  const container = assets.algoDdo.metadata.algorithm?.container;
  const job = context.engine.start({
    owner: String(body.consumerAddress),
    environment,
    // The job reads the very files fileInfo describes and download serves.
    datasets: assets.datasets.map((ref) => {
      const files = context.files(String(ref.documentId), String(ref.serviceId));
      return {
        did: String(ref.documentId),
        csv: joinCsvParts(files.map((file) => new TextDecoder().decode(file.bytes))),
        files: files.map((file) => ({ name: file.name, bytes: file.bytes })),
      };
    }),
    algorithmImage: container ? `${container.image}:${container.tag}` : "unknown",
    algocustomdata: assets.algorithm.algocustomdata as Record<string, unknown> | undefined,
    resources: limits.resources,
    maxJobDuration: limits.duration,
    additionalViewers: Array.isArray(body.additionalViewers)
      ? body.additionalViewers.map(String)
      : [],
    filenames: {
      ...context.faults.resultFilenames,
      ...(context.faults.hostileResultFilename ? { output: "../../escape.txt" } : {}),
    },
    payment,
    jobId,
  });
  const view = context.engine.view(job);
  // ocean-node's engine answers a start with `<cluster hash>-<jobId>`, its job list the short id.
  if (!context.shortJobIds) view.jobId = `${clusterHash(environment)}-${job.jobId}`;
  return json(200, [view]);
}

/**
 * GET /api/services/compute: unsigned, except that `includeMetrics=true`
 * asks for a signature (`getComputeStatus`, ocean-node's command; the spec
 * shows none) or the consumer's bearer token, and then adds each job's
 * `metrics` (shape not shown in the spec; the sandbox's is its own). A job
 * id is read as ocean-node reads it (`<cluster hash>-<jobId>`; an unknown
 * hash 500, an id without one all the consumer's jobs; consumerAddress
 * optional beside a job or agreement id); with `shortJobIds`, as the spec
 * does (consumerAddress required, the id matched as sent).
 */
export async function jobsHandler(
  context: ComputeContext,
  url: URL,
  request: Request,
): Promise<Response> {
  const consumer = url.searchParams.get("consumerAddress");
  const asked = url.searchParams.get("jobId");
  // Free jobs have no agreement (no order), so an agreement id matches none of them.
  const agreementId = url.searchParams.get("agreementId");
  const metrics = url.searchParams.get("includeMetrics") === "true";
  if (context.shortJobIds || metrics) {
    // The spec's list: consumerAddress required, a job id matched as sent.
    if (!consumer) return text(400, "Missing consumerAddress");
  } else if ((!consumer && !asked && !agreementId) || (consumer && !isAddress(consumer))) {
    // ocean-node's check fails, and its route answers every failure so
    // (src/components/core/compute/getStatus.ts, src/components/httpRoutes/compute.ts).
    return text(500, "Internal Server Error");
  }
  await settleEndedJobs(context);
  if (metrics) {
    const owner = context.tokens.ownerOf(request.headers.get("authorization"));
    if (owner === undefined || owner.toLowerCase() !== consumer!.toLowerCase()) {
      const check = await context.nonces.verify(
        Object.fromEntries(url.searchParams),
        "getComputeStatus",
      );
      if (!check.ok) return text(check.status, check.text);
    }
  }
  let jobId: string | null | undefined = asked;
  if (asked && !context.shortJobIds) {
    // ocean-node splits `<cluster hash>-<jobId>` at its first `-` and asks that cluster's
    // engine, which fails (500) for a hash it does not run; an id without one names no
    // cluster, and every engine lists all the consumer's jobs.
    jobId = asked.indexOf("-") > 0 ? engineJobId(context, asked) : null;
    if (jobId === undefined) return text(500, "Internal Server Error");
  }
  const seen = consumer ? context.engine.visibleTo(consumer) : context.engine.all();
  const jobs = seen
    .filter((job) => !jobId || job.jobId === jobId)
    .map((job) => context.engine.view(job))
    .filter((view) => !agreementId || view.agreementId === agreementId)
    .map((view) => metrics ? { ...view, metrics: jobMetrics(view) } : view);
  return json(200, jobs);
}

/** The sandbox's metrics of a job: its run time and the resources it holds. */
function jobMetrics(view: Record<string, unknown>): Record<string, unknown> {
  const start = Number(view.algoStartTimestamp);
  const stop = Number(view.algoStopTimestamp);
  return {
    runSeconds: start > 0 && stop >= start ? Number((stop - start).toFixed(3)) : 0,
    resources: view.resources,
  };
}

/** GET /api/services/computeResult */
export async function computeResultHandler(context: ComputeContext, url: URL): Promise<Response> {
  const query = Object.fromEntries(url.searchParams);
  for (const field of ["consumerAddress", "jobId", "index", "nonce", "signature"]) {
    if (!query[field]) return text(400, `Missing required parameter: ${field}`);
  }
  const check = await context.nonces.verify(query, "getComputeResult");
  if (!check.ok) return text(check.status, check.text);
  const jobId = engineJobId(context, query.jobId);
  if (jobId === undefined) return text(500, "Invalid C2D Environment");
  const job = context.engine.get(jobId);
  if (
    !job ||
    !(job.owner === query.consumerAddress || job.additionalViewers.includes(query.consumerAddress))
  ) {
    return text(404, "Job not found");
  }
  const view = context.engine.view(job);
  const results = view.results as unknown[];
  const index = Number(query.index);
  if (!Number.isInteger(index) || index < 0 || index >= results.length) {
    return text(400, `Invalid result index ${query.index}`);
  }
  const content = job.results[index].content;
  const headers = { "content-type": "text/plain" };
  if (context.faults.emptyResultBody) return new Response(null, { status: 200, headers });
  if (context.faults.interruptResultBody) {
    const half = content.subarray(0, Math.max(1, content.byteLength >> 1));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(half);
        setTimeout(() => controller.error(new Error("connection reset")), 20);
      },
    });
    return new Response(stream, { status: 200, headers });
  }
  return new Response(content.slice(), { status: 200, headers });
}
