/**
 * The checks `startFreeCompute` makes against the environments before
 * anything is sent: each violation is collected, so one error lists them all.
 *
 * @module
 */

import { looksLikeSecret, showValue } from "../../errors/redact.ts";
import { freeResource, type ResourceHolder } from "../_resources.ts";
import type { ComputeAssetRef, ComputeEnvironmentLimits, ResourceRequest } from "./types.ts";

const DID = /^did:[a-z0-9]+:[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** What the pre-checks found. */
export interface PrecheckResult {
  /** Every violation, one sentence each. */
  violations: string[];
  /** Things only the node can check (access lists). */
  notes: string[];
  /** The environment, when it exists. */
  environment?: ComputeEnvironmentLimits;
  /** The resources asked for, each under the node's own id (`gpu` sent as `myGPU`). */
  resources?: ResourceRequest[];
}

/** The request fields the pre-checks read. */
export interface PrecheckInput {
  address: string;
  environment: string;
  algorithm: ComputeAssetRef;
  datasets: ComputeAssetRef[];
  resources?: ResourceRequest[];
  maxJobDuration?: number;
  additionalViewers?: string[];
}

/** A dataset or algorithm reference: a DID and a service id. */
export function checkRef(ref: unknown, what: string, violations: string[]): void {
  if (!ref || typeof ref !== "object") {
    violations.push(`${what} is missing (give { documentId, serviceId })`);
    return;
  }
  const { documentId, serviceId } = ref as Partial<ComputeAssetRef>;
  if (typeof documentId !== "string" || !DID.test(documentId)) {
    violations.push(
      `${what} documentId ${
        showValue(documentId ?? null)
      } is not a DID (did:op: and 64 lowercase hex)`,
    );
  }
  if (typeof serviceId !== "string" || serviceId === "") {
    violations.push(`${what} serviceId is missing`);
  }
}

/**
 * Checks a free compute request against the environments.
 *
 * @param input The request.
 * @param environments The node's environments.
 * @returns The violations and notes.
 */
export function precheckFreeCompute(
  input: PrecheckInput,
  environments: readonly ComputeEnvironmentLimits[],
): PrecheckResult {
  const violations: string[] = [];
  const notes: string[] = [];
  checkRef(input.algorithm, "algorithm", violations);
  if (!Array.isArray(input.datasets) || input.datasets.length === 0) {
    violations.push("datasets is empty (give at least one { documentId, serviceId })");
  } else {
    input.datasets.forEach((ref, i) => checkRef(ref, `datasets[${i}]`, violations));
  }
  for (const viewer of input.additionalViewers ?? []) {
    if (typeof viewer !== "string" || !ADDRESS.test(viewer)) {
      const shown = looksLikeSecret(String(viewer))
        ? showValue(viewer)
        : String(viewer).slice(0, 60);
      violations.push(`additional viewer ${shown} is not an address`);
    }
  }

  const environment = environments.find((env) => env.id === input.environment);
  if (!environment) {
    const offered = environments.map((env) => env.id).join(", ") || "none";
    violations.push(
      `environment ${input.environment} does not exist on this node (offered: ${offered})`,
    );
    return { violations, notes };
  }
  const free = environment.free;
  if (!free) {
    violations.push(`environment ${environment.id} offers no free jobs`);
    return { violations, notes, environment };
  }

  const addresses = free.access?.addresses ?? [];
  const lists = free.access?.accessLists ?? [];
  const listed = addresses.some((a) => a.toLowerCase() === input.address.toLowerCase());
  if (!listed && addresses.length > 0 && lists.length === 0) {
    violations.push(
      `${input.address} is not on the free allowlist of ${environment.id} (${addresses.length} addresses)`,
    );
  } else if (!listed && lists.length > 0) {
    notes.push(
      `${input.address} is not among the free addresses of ${environment.id}; ` +
        `its ${lists.length} access lists can only be checked by the node`,
    );
  }

  const seen = new Set<string>();
  const resources: ResourceRequest[] = [];
  for (const request of input.resources ?? []) {
    const id = request?.id;
    const amount = request?.amount;
    if (typeof id !== "string") {
      violations.push(`a resource request has no id (give { id: "cpu", amount: 1 })`);
      continue;
    }
    if (seen.has(id)) violations.push(`resource ${id} is requested twice`);
    seen.add(id);
    // By the node's id, else by kind: { id: "gpu" } finds the node's "myGPU".
    const limits = freeResource(environment as ResourceHolder, id);
    if (!limits) {
      const offered = (free.resources ?? []).map((r) => r.id).join(", ") || "none";
      violations.push(`resource ${id} is not offered for free jobs (offered: ${offered})`);
      continue;
    }
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) {
      violations.push(`${id} amount ${String(amount)} is not a non-negative number`);
      continue;
    }
    resources.push({ ...request, id: limits.id });
    const unit = limits.kind === "ram" || limits.kind === "disk" ? " GiB" : "";
    const shown = (figure: number) => `${Number(figure.toFixed(2))}${unit}`;
    if (limits.max !== undefined && amount > limits.max) {
      violations.push(`${id} ${amount} exceeds the free maximum of ${shown(limits.max)}`);
    }
    if (limits.min !== undefined && amount < limits.min) {
      violations.push(`${id} ${amount} is below the free minimum of ${shown(limits.min)}`);
    }
  }

  // ocean-node refuses a free start when the environment already runs
  // free.maxJobs free jobs (of anyone): said here, before anything is signed.
  const running = Number(environment.runningfreeJobs);
  if (free.maxJobs !== undefined && Number.isFinite(running) && running >= free.maxJobs) {
    violations.push(
      `${environment.id} already runs ${running} free jobs, its free maximum (free.maxJobs ${free.maxJobs}); ` +
        "wait for one to finish",
    );
  }

  const duration = input.maxJobDuration;
  if (duration !== undefined) {
    if (!Number.isInteger(duration) || duration <= 0) {
      violations.push(`maxJobDuration ${duration} is not a positive whole number of seconds`);
    } else {
      if (free.maxJobDuration !== undefined && duration > free.maxJobDuration) {
        violations.push(
          `maxJobDuration ${duration} s exceeds the free maximum of ${free.maxJobDuration} s`,
        );
      }
      if (free.minJobDuration !== undefined && duration < free.minJobDuration) {
        violations.push(
          `maxJobDuration ${duration} s is below the free minimum of ${free.minJobDuration} s`,
        );
      }
    }
  }
  return {
    violations,
    notes,
    environment,
    resources: input.resources === undefined ? undefined : resources,
  };
}
