/**
 * Stopping a job and following its logs, as ocean-node serves them:
 * `PUT /api/services/compute` (query `consumerAddress, jobId, nonce,
 * signature`, signed `stopCompute`; answers the matching jobs, `[]` for
 * none) and `GET /api/services/computeStreamableLogs` (signed
 * `getComputeStreamableLogs`; the algorithm's output as plain text while the
 * job runs, 404 `Job not found or not running` otherwise). `DELETE` on the
 * compute path answers 404 `Not yet implemented!` as the node's route does.
 * Job ids come as `<cluster hash>-<jobId>`; a short id is the node's 500
 * `Invalid C2D Environment`.
 *
 * @module
 */

import { type ComputeContext, json, text } from "./_context.ts";
import type { SandboxJob } from "./job_engine.ts";
import { engineJobId } from "./_job_ids.ts";

const encoder = new TextEncoder();
/** How often a log stream looks at the job's clock. */
const TICK_MS = 10;

/** The job a signed query names, or the node's refusal. */
async function signedJob(
  context: ComputeContext,
  url: URL,
  command: string,
): Promise<{ job: SandboxJob | undefined; owner: string } | Response> {
  const query = Object.fromEntries(url.searchParams);
  if (!query.jobId) return text(400, "Missing required parameter: jobId");
  const check = await context.nonces.verify(query, command);
  if (!check.ok) return text(check.status, check.text);
  const jobId = engineJobId(context, query.jobId);
  if (jobId === undefined) return text(500, "Invalid C2D Environment");
  return { job: context.engine.get(jobId), owner: query.consumerAddress };
}

/** PUT /api/services/compute: marks the owner's job stopped and answers it. */
export async function stopComputeHandler(context: ComputeContext, url: URL): Promise<Response> {
  const found = await signedJob(context, url, "stopCompute");
  if (found instanceof Response) return found;
  const { job, owner } = found;
  if (!job || job.owner.toLowerCase() !== owner.toLowerCase()) return json(200, []);
  const view = context.engine.view(job);
  context.engine.stop(job);
  return json(200, [view]);
}

/** GET /api/services/computeStreamableLogs: the algorithm's lines while it runs. */
export async function streamableLogsHandler(
  context: ComputeContext,
  url: URL,
): Promise<Response> {
  const found = await signedJob(context, url, "getComputeStreamableLogs");
  if (found instanceof Response) return found;
  const { job } = found;
  if (!job || !context.engine.running(job) || context.engine.status(job) !== 40) {
    return text(404, "Job not found or not running");
  }
  const log = job.results.find((r) => r.type === "algorithmLog")?.content ?? new Uint8Array();
  const lines = new TextDecoder().decode(log).split(/(?<=\n)/).filter((line) => line !== "");
  // Line i comes when the engine's clock has gone (i + 1) / (n + 1) of the
  // running step, so a reader sees the lines arrive while the job runs (and
  // a test that moves the clock decides which have come); a stop ends the
  // stream once the job leaves status 40.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const tick = () => {
        const span = context.engine.running(job)!;
        const due = Math.floor(
          (span.now - span.from) * (lines.length + 1) / (span.until - span.from),
        );
        if (context.engine.status(job) === 40) {
          while (next < Math.min(due, lines.length)) {
            controller.enqueue(encoder.encode(lines[next++]));
          }
        }
        if (next >= lines.length || context.engine.status(job) !== 40) {
          controller.close();
          return;
        }
        timer = setTimeout(tick, TICK_MS);
      };
      tick();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/plain" } });
}

/** DELETE /api/services/compute: not a route of the node yet. */
export function deleteComputeHandler(): Response {
  return text(404, "Not yet implemented!");
}
