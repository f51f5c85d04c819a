/**
 * Which free compute job the demo and the compute notebook run, and with
 * which key: against the sandbox node its own example with the sandbox
 * wallet; against a real node the assets in `TIDEPOOL_COMPUTE_DATASET` and
 * `TIDEPOOL_COMPUTE_ALGORITHM` with the key in `OCEAN_PRIVATE_KEY`, or a
 * one-line reason to skip. The sandbox wallet's key is used only when the
 * node is the sandbox's own, so it never reaches a real service. A replay
 * skips too: starting a job is a signed request, and signed requests are
 * never recorded, so there is nothing honest to replay.
 *
 * @module
 */

import type { OceanNode } from "../ocean/ocean_node.ts";
import { type Signer, signerFromEnv, signerFromPrivateKey } from "../ocean/signer.ts";
import { SERVICE_VARIABLES, type Services } from "./open_services.ts";
import { SANDBOX_NODE_ID } from "./ocean/_asset_handlers.ts";
import { SANDBOX_WALLET_KEY } from "./ocean/compute/create_compute_handlers.ts";

/** The environment variables a compute job on a real node needs. */
export const COMPUTE_VARIABLES = {
  dataset: "TIDEPOOL_COMPUTE_DATASET",
  algorithm: "TIDEPOOL_COMPUTE_ALGORITHM",
  privateKey: "OCEAN_PRIVATE_KEY",
} as const;

/** An asset and service to compute on or with. */
export interface ComputeAsset {
  /** The DID. */
  documentId: string;
  /** The service id. */
  serviceId: string;
}

/** A free compute job ready to start. */
export interface ComputePlan {
  /** `sandbox`: the sandbox node's example and wallet; `real`: the variables'. */
  source: "sandbox" | "real";
  /** Who signs (its address only is ever shown). */
  signer: Signer;
  /** The environment id. */
  environment: string;
  /** The algorithm. */
  algorithm: ComputeAsset;
  /** The datasets. */
  datasets: ComputeAsset[];
  /** A suitable interval between job polls, in ms. */
  pollMs: number;
}

/** No job to run, and why, in one line. */
export interface ComputeSkipped {
  /** The reason, e.g. `compute: skipped: set TIDEPOOL_COMPUTE_DATASET to run a job on the real node`. */
  skipped: string;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The compute job to run on `services`' node, or why none is run.
 *
 * @param node The client of `services.urls.ocean`.
 * @param services What {@linkcode openServices} opened.
 * @returns The plan, or `{ skipped }` with a one-line reason.
 *
 * @example In the demo
 * ```ts ignore (a compute flow, left as written while lib/ocean/compute is reworked; tests/ocean_compute runs it on the sandbox)
 * const plan = await computePlan(node, services);
 * if ("skipped" in plan) console.log(plan.skipped);
 * else {
 *   const { signer, environment, algorithm, datasets } = plan;
 *   await node.startFreeCompute({ signer, environment, algorithm, datasets });
 * }
 * ```
 */
export async function computePlan(
  node: OceanNode,
  services: Services,
): Promise<ComputePlan | ComputeSkipped> {
  if (services.replay) {
    return {
      skipped:
        "compute: skipped in replay: starting a job is a signed request, never recorded; record again to compute",
    };
  }
  const sandbox = services.sandbox?.ocean;
  if (sandbox && !services.real.ocean && services.urls.ocean === sandbox.url) {
    const example = sandbox.computeExample();
    return {
      source: "sandbox",
      signer: signerFromPrivateKey(SANDBOX_WALLET_KEY, "the sandbox wallet"),
      environment: example.environment,
      algorithm: example.algorithm,
      datasets: [example.dataset],
      pollMs: 200,
    };
  }
  const dataset = env(COMPUTE_VARIABLES.dataset);
  const algorithm = env(COMPUTE_VARIABLES.algorithm);
  const missing = [
    dataset ? undefined : COMPUTE_VARIABLES.dataset,
    algorithm ? undefined : COMPUTE_VARIABLES.algorithm,
    env(COMPUTE_VARIABLES.privateKey) ? undefined : COMPUTE_VARIABLES.privateKey,
  ].filter((name) => name !== undefined);
  if (missing.length > 0 || !dataset || !algorithm) {
    if (await isSandboxNode(node)) {
      return {
        skipped: `compute: skipped: the node at ${services.urls.ocean} is tidepool's sandbox, ` +
          `started outside openServices() (${SERVICE_VARIABLES.ocean} names it); unset ` +
          `${SERVICE_VARIABLES.ocean} so that openServices() starts the sandbox node and its ` +
          `example job runs with the sandbox wallet`,
      };
    }
    return {
      skipped: `compute: skipped: set ${missing.join(", ")} to run a free job on the real node`,
    };
  }
  const asset = async (did: string): Promise<ComputeAsset> => {
    const ddo = await node.ddo(did);
    const found = ddo.services.find((s) => s.type === "compute") ?? ddo.services[0];
    return { documentId: did, serviceId: found.id };
  };
  const chainId = Number((await node.info()).chainIds[0] ?? 11155111);
  const [environment] = await node.computeEnvironments(chainId);
  if (!environment) {
    return {
      skipped: `compute: skipped: the node offers no compute environment on chain ${chainId}`,
    };
  }
  return {
    source: "real",
    signer: signerFromEnv(COMPUTE_VARIABLES.privateKey),
    environment: environment.id,
    algorithm: await asset(algorithm),
    datasets: [await asset(dataset)],
    pollMs: 10_000,
  };
}

/** Whether the node says it is the sandbox's (its nodeId); false when it cannot be asked. */
async function isSandboxNode(node: OceanNode): Promise<boolean> {
  try {
    return (await node.info()).nodeId === SANDBOX_NODE_ID;
  } catch {
    return false;
  }
}
