/** A sandbox node whose jobs move only when the test moves its clock, and a job started on it. */

import { OceanNode, signerFromPrivateKey } from "../../lib/ocean/mod.ts";
import type { ProgressEvent } from "../../lib/progress/progress.ts";
import { SANDBOX_WALLET_KEY, startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import { shortJobId } from "./_job_ids.ts";

/** Time per job status step on the test's clock. */
export const STEP_MS = 1_000;
/** The sandbox wallet, allowlisted for free jobs. */
export const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);

/** A sandbox on a clock the test moves, and a client that records progress. */
export function sandboxOnClock() {
  const clock = { now: 1_700_000_000_000 };
  const sandbox = startOceanSandbox({ compute: { stepMs: STEP_MS, now: () => clock.now } });
  const events: ProgressEvent[] = [];
  const node = new OceanNode(sandbox.url, {
    progress: (event) => events.push(event),
    retry: false,
  });
  return { sandbox, clock, node, events, started: clock.now };
}

/**
 * Starts the sandbox's example free job of 60 s. The node answers the id as
 * `<cluster hash>-<jobId>` (ocean-node's form; the spec's seeds answer it
 * short); the job is handed back with the short id its job list gives, so
 * the tests build the long form where they mean it.
 */
export async function startJob(node: OceanNode, sandbox: ReturnType<typeof startOceanSandbox>) {
  const { dataset, algorithm, environment } = sandbox.computeExample();
  const [job] = await node.startFreeCompute({
    signer,
    environment,
    algorithm,
    datasets: [dataset],
    maxJobDuration: 60,
  });
  return { ...job, jobId: shortJobId(job.jobId) };
}
