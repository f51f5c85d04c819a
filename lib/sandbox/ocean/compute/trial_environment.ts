import { createHash } from "node:crypto";

/** One resource of an environment (spec section 2, Resource). */
export interface SandboxResource {
  /** Identifier. */
  id: string;
  /** Resource type (`cpu`, `ram`, `disk`, ...). */
  type: string;
  /** Resource kind, for GPUs the model. */
  kind: string;
  /** Total amount the environment has. */
  total: number;
  /** Most one job may use. */
  max: number;
  /** Least one job must ask for. */
  min: number;
  /** Amount in use by running jobs. */
  inUse: number;
  /** What the operator says it is (a GPU's model). */
  description?: string;
}

/** A compute environment as the sandbox serves it (spec section 2, values of section 8). */
/**
 * A GPU of the trial environment, as an operator names it: real nodes call it
 * what they like (`myGPU`) and give it `type: "gpu"`.
 */
export interface SandboxGpu {
  /** The resource id the operator chose. */
  id: string;
  /** The operator's description of the card. */
  description: string;
}

/** A compute environment as the sandbox node lists it (`GET /api/services/computeEnvironments`). */
export interface SandboxEnvironment {
  /** Identifier. */
  id: string;
  /** Human-readable description. */
  description: string;
  /** The node's consumer address for this environment. */
  consumerAddress: string;
  /** Jobs running now. */
  runningJobs: number;
  /** Free jobs running now (the spec's casing). */
  runningfreeJobs: number;
  /** Jobs waiting to run. */
  queuedJobs: number;
  /** Free jobs waiting to run. */
  queuedFreeJobs: number;
  /** Whether jobs may reach the network. */
  enableNetwork: boolean;
  /** Fees per chain id: the token and per-resource prices; null in the trial environment. */
  fees: Record<string, { feeToken: string; prices: { id: string; price: number }[] }[]> | null;
  /** Who may start paid jobs (empty: anyone). */
  access: { addresses: string[]; accessLists: null };
  /** Resources of the environment. */
  resources: SandboxResource[];
  /** Shortest job, in seconds. */
  minJobDuration: number;
  /** Longest job, in seconds. */
  maxJobDuration: number;
  /** How long results are kept, in seconds. */
  storageExpiry: number;
  /** Limits for free jobs. */
  free: {
    access: { addresses: string[]; accessLists: null };
    minJobDuration: number;
    maxJobDuration: number;
    maxJobs: number;
    resources: SandboxResource[];
  };
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The cluster hash of the sandbox's trial environment. */
export const TRIAL_CLUSTER_HASH: string = hash("tidepool sandbox cluster");

/**
 * The trial environment with the limits of spec section 8: free jobs only
 * (`fees` null), 10 to 600 seconds, 3 jobs, cpu 1..2 of 6, ram 1..2 of 8 GiB,
 * disk 0..10 of 98 GiB, no network.
 *
 * @param allowlist The addresses allowed to start free jobs.
 * @returns The environment.
 *
 * @example The trial environment's free cpu limit
 * ```ts
 * const env = trialEnvironment(["0x0000000000000000000000000000000000000001"]);
 * console.log(env.free.resources.find((r) => r.id === "cpu")?.max); // 2
 * ```
 */
export function trialEnvironment(
  allowlist: readonly string[],
  gpu?: SandboxGpu,
): SandboxEnvironment {
  const resource = (id: string, total: number, max: number, min: number) => ({
    id,
    type: id,
    kind: id === "cpu" ? "cpu" : id === "ram" ? "memory" : "storage",
    total,
    max,
    min,
    inUse: 0,
  });
  const resources: SandboxResource[] = [
    resource("cpu", 6, 2, 1),
    resource("ram", 8, 2, 1),
    resource("disk", 98, 10, 0),
  ];
  if (gpu) {
    resources.push({
      id: gpu.id,
      type: "gpu",
      kind: "gpu",
      description: gpu.description,
      total: 1,
      max: 1,
      min: 0,
      inUse: 0,
    });
  }
  // Real nodes list free resources by id, with their figures only: the type is
  // the environment's (a GPU named `myGPU` is known as a gpu from there alone).
  const freeResources = resources.map((r) =>
    r.type === "gpu" ? { id: r.id, max: r.max, min: r.min, inUse: r.inUse } : { ...r }
  );
  return {
    id: `${TRIAL_CLUSTER_HASH}-${hash("tidepool sandbox free environment")}`,
    description: "Sandbox trial environment: free jobs only",
    consumerAddress: "0x5c8B6fE1d0B6a2A13A5cB1a6E4B0C3E2a1b7D9F0",
    runningJobs: 0,
    runningfreeJobs: 0,
    queuedJobs: 0,
    queuedFreeJobs: 0,
    enableNetwork: false,
    fees: null,
    access: { addresses: [], accessLists: null },
    resources,
    minJobDuration: 10,
    maxJobDuration: 600,
    storageExpiry: 604800,
    free: {
      access: { addresses: [...allowlist], accessLists: null },
      minJobDuration: 10,
      maxJobDuration: 600,
      maxJobs: 3,
      resources: freeResources as SandboxResource[],
    },
  };
}
