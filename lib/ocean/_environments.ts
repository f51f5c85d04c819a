/**
 * Compute environments: the typed list and a one-row-per-environment table
 * of the free tier's limits and resources.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { HttpClient } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { buildTable, type ColumnSpec, defineSchema } from "../table/mod.ts";
import type { ComputeEnvironment } from "./types.ts";
import {
  freeResource,
  RESOURCE_KINDS,
  type ResourceHolder,
  type ResourceKind,
} from "./_resources.ts";

/** One free resource's figure, found by kind and in the specification's units. */
function freeFigure(env: ComputeEnvironment, kind: ResourceKind, figure: string): unknown {
  return freeResource(env as ResourceHolder, kind)?.[figure] ?? null;
}

const FIGURES = ["total", "max", "min", "inUse"] as const;

const resourceColumns: ColumnSpec<ComputeEnvironment>[] = RESOURCE_KINDS.flatMap((kind) =>
  FIGURES.map((figure) => ({
    name: `${kind}${figure[0].toUpperCase()}${figure.slice(1)}`,
    type: "number" as const,
    get: (env: ComputeEnvironment) => freeFigure(env, kind, figure),
    description: `Free tier ${kind}: ${figure}${
      kind === "ram" || kind === "disk" ? " (GiB, also from a node that counts bytes)" : ""
    }${kind === "gpu" ? " (the resource of type gpu, whatever its id)" : ""}`,
  }))
);

/** The columns of the environments table. */
export const ENVIRONMENT_COLUMNS = defineSchema<ComputeEnvironment>([
  {
    name: "id",
    type: "string",
    description: "Environment id, `<cluster hash>-<environment hash>`",
  },
  { name: "description", type: "string", description: "Description" },
  {
    name: "minJobDuration",
    type: "integer",
    path: "free.minJobDuration",
    description: "Free tier: shortest job, seconds",
  },
  {
    name: "maxJobDuration",
    type: "integer",
    path: "free.maxJobDuration",
    description: "Free tier: longest job, seconds",
  },
  {
    name: "maxJobs",
    type: "integer",
    path: "free.maxJobs",
    description: "Free tier: most jobs at once",
  },
  ...resourceColumns,
  {
    name: "gpuDescription",
    type: "string",
    get: (env) => {
      const gpu = freeResource(env as ResourceHolder, "gpu");
      return typeof gpu?.description === "string" ? gpu.description : null;
    },
    description: "Free tier gpu: the node's description of it (`NVIDIA GeForce GTX 1060 3GB`)",
  },
  { name: "enableNetwork", type: "boolean", description: "Whether jobs get network access" },
  {
    name: "paid",
    type: "boolean",
    get: (env) => env.fees !== null && env.fees !== undefined,
    description: "Whether paid jobs exist (fees not null)",
  },
  {
    name: "freeAllowlistSize",
    type: "integer",
    get: (env) => env.free ? (env.free.access?.addresses ?? []).length : null,
    description: "Addresses allowed to start free jobs (0 with no access lists means anyone)",
  },
  {
    name: "freeAccessLists",
    type: "integer",
    get: (env) => env.free ? (env.free.access?.accessLists ?? []).length : null,
    description: "Access-list contracts of the free tier",
  },
  { name: "storageExpiry", type: "integer", description: "Seconds results are kept" },
  { name: "runningJobs", type: "integer", description: "Jobs running now" },
  { name: "queuedJobs", type: "integer", description: "Jobs queued now" },
]);

/** Reads the environments of one chain. */
export async function fetchEnvironments(
  http: HttpClient,
  chainId: number,
): Promise<ComputeEnvironment[]> {
  if (!Number.isInteger(chainId)) {
    throw new TidepoolError(`Invalid chainId: ${chainId}`, {
      hint: "Give an integer such as 11155111",
    });
  }
  const response = await http.request({
    path: "/api/services/computeEnvironments",
    query: { chainId },
  });
  const environments = response.json<unknown>();
  if (!Array.isArray(environments)) {
    throw new ProtocolError("Unexpected computeEnvironments answer: expected an array", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  return environments as ComputeEnvironment[];
}

/** The environments as a table. */
export function environmentsToTable(environments: ComputeEnvironment[]): ColumnTable {
  return buildTable(ENVIRONMENT_COLUMNS, environments);
}
