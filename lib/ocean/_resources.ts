/**
 * Compute resources as real nodes list them: operators name a resource as
 * they like (`"id": "myGPU", "type": "gpu"`) and list it in the free tier by
 * that id, and some nodes give ram and disk in bytes where the specification
 * says GiB. Resources are read by their kind (the `type`, else the id) and
 * their figures brought to the specification's units here, for the
 * environments table and the pre-checks alike.
 *
 * @module
 */

/** The kinds of resource the specification names. */
export const RESOURCE_KINDS = ["cpu", "ram", "disk", "gpu"] as const;

/** One of {@linkcode RESOURCE_KINDS}. */
export type ResourceKind = typeof RESOURCE_KINDS[number];

/** The figures of a resource, as a node sends them. */
export interface ResourceFigures {
  id: string;
  type?: string;
  total?: number;
  max?: number;
  min?: number;
  inUse?: number;
  [key: string]: unknown;
}

/** What the reads below need of an environment. */
export interface ResourceHolder {
  resources?: ResourceFigures[] | null;
  free?: { resources?: ResourceFigures[] | null; [key: string]: unknown } | null;
}

const FIGURES = ["total", "max", "min", "inUse"] as const;

/**
 * A figure this large cannot be GiB of one node's ram or disk (a mebi-GiB is
 * an exbibyte): the node counts in bytes.
 */
const BYTES_THRESHOLD = 2 ** 20;
const GIB = 2 ** 30;

function isKind(text: unknown): text is ResourceKind {
  return typeof text === "string" && (RESOURCE_KINDS as readonly string[]).includes(text);
}

/**
 * The kind of a resource: its `type` when that is a kind, else the `type` of
 * the environment's resource of the same id (a free tier lists only ids),
 * else its id when that is a kind.
 *
 * @param resource The resource.
 * @param env The environment it belongs to.
 * @returns Its kind, or undefined for a resource of another kind.
 */
export function resourceKind(
  resource: ResourceFigures,
  env: ResourceHolder,
): ResourceKind | undefined {
  const type = typeof resource.type === "string" ? resource.type.toLowerCase() : undefined;
  if (isKind(type)) return type;
  const general = env.resources?.find((r) => r?.id === resource.id);
  const generalType = typeof general?.type === "string" ? general.type.toLowerCase() : undefined;
  if (isKind(generalType)) return generalType;
  return isKind(resource.id) ? resource.id : undefined;
}

/**
 * Whether an environment gives a kind in bytes: ram and disk figures past
 * 2^20 (the environment's own and its free tier's) cannot be GiB.
 */
function inBytes(env: ResourceHolder, kind: ResourceKind): boolean {
  if (kind !== "ram" && kind !== "disk") return false;
  const all = [...(env.resources ?? []), ...(env.free?.resources ?? [])]
    .filter((r) => r && resourceKind(r, env) === kind);
  return all.some((r) => FIGURES.some((f) => typeof r[f] === "number" && r[f]! > BYTES_THRESHOLD));
}

/** A free resource with its figures filled in and in the specification's units. */
export interface FreeResource extends ResourceFigures {
  /** The resource's kind. */
  kind?: ResourceKind;
  /** Whether the node gave its figures in bytes (they are GiB here). */
  convertedFromBytes: boolean;
}

/**
 * The free tier's resource asked for by id (as the node names it) or, when
 * no free resource has that id, by kind (`gpu` finds `myGPU` of type gpu):
 * figures the free tier leaves out filled from the environment's resource
 * of the same id, and ram and disk in GiB.
 *
 * @param env The environment.
 * @param idOrKind The node's id of the resource, or its kind.
 * @returns The resource, or undefined when the free tier has none.
 */
export function freeResource(env: ResourceHolder, idOrKind: string): FreeResource | undefined {
  const free = env.free?.resources?.filter((r) => r && typeof r === "object") ?? [];
  const found = free.find((r) => r.id === idOrKind) ??
    (isKind(idOrKind) ? free.find((r) => resourceKind(r, env) === idOrKind) : undefined);
  if (!found) return undefined;
  const general = env.resources?.find((r) => r?.id === found.id);
  const kind = resourceKind(found, env);
  const merged: FreeResource = { ...general, ...found, kind, convertedFromBytes: false };
  for (const figure of FIGURES) merged[figure] = found[figure] ?? general?.[figure];
  if (kind && inBytes(env, kind)) {
    for (const figure of FIGURES) {
      if (typeof merged[figure] === "number") merged[figure] = merged[figure]! / GIB;
    }
    merged.convertedFromBytes = true;
  }
  return merged;
}
