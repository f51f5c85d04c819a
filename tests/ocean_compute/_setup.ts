/** Shared setup of the compute tests: a sandbox, a client that records progress and warnings, a signer and a compute pair. */

import { HttpClient } from "../../lib/http/client.ts";
import type { ProgressEvent } from "../../lib/progress/progress.ts";
import type { Ddo } from "../../lib/ocean/ddo.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import {
  type ComputeHandlersOptions,
  SANDBOX_WALLET_KEY,
} from "../../lib/sandbox/ocean/compute/mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import type { ComputeEnvironmentLimits } from "../../lib/ocean/compute/mod.ts";

export const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);

/** A dataset with a compute service and an algorithm it trusts. */
export function computePair(assets: Iterable<Ddo>) {
  for (const ddo of assets) {
    const service = ddo.services.find((s) =>
      s.type === "compute" && (s.compute?.publisherTrustedAlgorithms?.length ?? 0) > 0
    );
    if (!service || ddo.metadata.type !== "dataset") continue;
    const algoDid = (service.compute!.publisherTrustedAlgorithms![0] as { did: string }).did;
    return {
      dataset: { documentId: ddo.id, serviceId: service.id },
      algorithmDid: algoDid,
    };
  }
  throw new Error("No compute pair in the seeded assets");
}

export async function setup(options: ComputeHandlersOptions = {}) {
  const sandbox = startOceanSandbox({ count: 60, compute: { stepMs: 15, ...options } });
  const compute = sandbox.compute!;
  const events: ProgressEvent[] = [];
  const warnings: string[] = [];
  const http = new HttpClient(sandbox.url, {
    progress: (event) => events.push(event),
    warn: (message) => warnings.push(message),
    retry: { baseDelayMs: 10 },
  });
  const environments = await (await fetch(`${sandbox.url}/api/services/computeEnvironments`))
    .json() as ComputeEnvironmentLimits[];
  const pair = computePair(sandbox.ddos);
  const algo = sandbox.ddos.find((ddo) => ddo.id === pair.algorithmDid)!;
  const algorithm = { documentId: algo.id, serviceId: algo.services[0].id };
  const request = {
    signer,
    environment: environments[0].id,
    algorithm,
    datasets: [pair.dataset],
    resources: [{ id: "cpu", amount: 1 }, { id: "ram", amount: 1 }],
    maxJobDuration: 60,
  };
  return { sandbox, compute, http, events, warnings, environments, request, pair };
}

/**
 * The statistics the sandbox algorithm should report for one column,
 * computed here from the dataset's CSV parts (each with its header).
 */
export function expectedStats(parts: string[], column: string) {
  const i = parts[0].split("\n")[0].split(",").indexOf(column);
  const values = parts.flatMap((part) => part.trim().split("\n").slice(1))
    .map((line) => Number(line.split(",")[i]));
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    count: values.length,
    mean: sum / values.length,
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
