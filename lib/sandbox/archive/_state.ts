/**
 * The running state of the archive sandbox that every handler reads: the
 * seed with indexes, the origin, the key table, the SPARQL store, faults and
 * a request log.
 *
 * @module
 */

import type { OaiProvider } from "./oai/oai_provider.ts";
import {
  type ResourceMetadata,
  resourceSyncMetadata,
  type ResourceSyncSource,
} from "./resourcesync/resourcesync_source.ts";
import { extraFields, type SandboxMode, variantOf } from "../_strictness.ts";
import type { OaiFaults } from "./oai/types.ts";
import type {
  ArchiveSeed,
  SeedAsset,
  SeedDatabase,
  SeedEntity,
  SeedKey,
  SeedResource,
} from "./seed.ts";

/** Who is calling, from the API key. */
export interface Caller {
  account: string;
  scopes: ("read" | "write")[];
  admin: boolean;
}

/** One logged request (never the key itself). */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** Request URL, with any key removed. */
  url: string;
  /** Whether an Authorization header came with it. */
  authorized: boolean;
}

/** Fault switches, named after the fault. */
export interface ArchiveFaults {
  /** Every API request answers 402. */
  quotaExceeded: boolean;
  /** The OAI-PMH providers' switches, shared by every site (503 for a page, token expiry, ...). */
  oai: OaiFaults;
  /**
   * SELECT answers hold at most this many rows, as Virtuoso's
   * ResultSetMaxRows does (10,000 on many public endpoints); like Virtuoso,
   * an answer cut to it carries `X-SPARQL-MaxRows`.
   */
  sparqlRowCap?: number;
  /**
   * The deepest sorted window a SELECT may ask for (ORDER BY with OFFSET +
   * LIMIT past it answers 500 with Virtuoso's SR353), as Virtuoso's
   * MaxSortedTopRows does; default 10,000, Virtuoso's own.
   */
  sparqlMaxSortedTopRows?: number;
}

/**
 * Shapes the spec leaves "not shown", chosen per sandbox so the clients
 * cannot come to depend on one guess.
 */
export interface ArchiveShapes {
  /**
   * The accounts catalogue: `databases` (`{databases: [...]}`), `list` (a
   * bare list) or `accounts` (accounts each holding their `databases`).
   */
  accounts: "databases" | "list" | "accounts";
  /** The statuses a converting upload reports before `ready`, in turn. */
  pendingStatuses: string[];
  /** Fields the spec does not list, added to catalogue entries, databases and assets. */
  extraFields: Record<string, unknown>;
  /** POST /api/me/keys answers `{key, ...}`, `{api_key}` or the key as a bare JSON string. */
  keyAnswer: "key" | "api_key" | "string";
  /** POST uploads answers `{id, upload_url}` or `{asset_id, url}`. */
  uploadAnswer: "upload_url" | "url";
  /**
   * What an upload without a derivative reports once its file is stored:
   * the spec shows statuses only for the tiled pipeline.
   */
  untiledStatus: string;
  /** What POST .../rdf-index answers: `{status, resources}`, `{}` or no body (204). */
  rdfIndexAnswer: "status" | "empty" | "none";
  /** DELETE /api/me/domains answers 204, or 200 with the removed domain. */
  domainDeleteAnswer: "none" | "domain";
  /** The content metadata (`length`, digests) ResourceSync entries carry; the spec shows none. */
  resourceSyncMetadata: readonly ResourceMetadata[];
}

/** The shapes of shapes seed 0: the ones the sandbox was first written with. */
export const DEFAULT_SHAPES: ArchiveShapes = archiveShapes(0);

/**
 * The "not shown" shapes of a shapes seed: seeds 1, 2 and 3 cover the three
 * catalogue envelopes and three sets of unknown pending upload statuses.
 */
export function archiveShapes(seed: number): ArchiveShapes {
  return {
    accounts: variantOf(seed, ["databases", "list", "accounts"] as const),
    pendingStatuses: variantOf(seed, [
      ["queued"],
      ["processing", "tiling"],
      ["transcoding", "awaiting-worker", "queued"],
      ["uploaded"],
    ]),
    extraFields: extraFields(seed),
    keyAnswer: variantOf(seed, ["key", "api_key", "string"] as const),
    uploadAnswer: variantOf(seed, ["upload_url", "url"] as const),
    untiledStatus: variantOf(seed, ["stored", "ready", "uploaded"]),
    rdfIndexAnswer: variantOf(seed, ["status", "empty", "none"] as const),
    domainDeleteAnswer: variantOf(seed, ["none", "domain"] as const),
    resourceSyncMetadata: resourceSyncMetadata(seed),
  };
}

/** A database with its lookups. */
export interface DatabaseIndex {
  db: SeedDatabase;
  bySlug: Map<string, SeedResource>;
  byId: Map<string, SeedResource>;
  children: Map<string, SeedResource[]>;
  /** Lowercased searchable text of each resource. */
  text: Map<SeedResource, string>;
  /** Services this database had before a switch; their paths answer 307. */
  formerServices: Set<string>;
}

/** The sandbox state. */
export interface ArchiveState {
  seed: ArchiveSeed;
  origin: string;
  keys: SeedKey[];
  databases: Map<string, DatabaseIndex>;
  entities: Map<string, SeedEntity[]>;
  faults: ArchiveFaults;
  /** The "not shown" shapes this sandbox answers with. */
  shapes: ArchiveShapes;
  /** `strict`: undocumented parameters, body fields and endpoints answer the spec's errors. */
  mode: SandboxMode;
  log: LoggedRequest[];
  /** Where uploads are stored, and the snapshot file when writes persist. */
  storage: { uploads: string; snapshot?: string };
  /** Largest single upload accepted, in bytes. */
  maxUploadBytes: number;
  /** How long a conversion takes, in ms; `Infinity`: until `finishConversions`. */
  conversionMs: number;
  /** Pending conversion timers, cleared on close. */
  timers: Set<ReturnType<typeof setTimeout>>;
  /** Assets being converted, with their timers (none when they wait for `finishConversions`). */
  converting: Map<SeedAsset, ReturnType<typeof setTimeout> | undefined>;
  /** TXT records "published" for external domains (the sandbox's DNS). */
  dns: Set<string>;
  /** The OAI-PMH providers and the ResourceSync source (set once the origin is known). */
  harvesting?: Harvesting;
  /** Runs a SPARQL query (set once the store is built). */
  sparql?: (query: string, format: string, db: SeedDatabase) => string | boolean;
}

/** Builds the lookups of a seed. */
export function indexSeed(seed: ArchiveSeed): Map<string, DatabaseIndex> {
  const out = new Map<string, DatabaseIndex>();
  for (const db of seed.databases) {
    const bySlug = new Map<string, SeedResource>();
    const byId = new Map<string, SeedResource>();
    const children = new Map<string, SeedResource[]>();
    const text = new Map<SeedResource, string>();
    for (const resource of db.resources) {
      bySlug.set(resource.slug, resource);
      byId.set(resource.id, resource);
      if (resource.parent) {
        const list = children.get(resource.parent) ?? [];
        list.push(resource);
        children.set(resource.parent, list);
      }
      const values = Object.values(resource.metadata).flat().join(" ");
      text.set(resource, `${resource.title} ${values}`.toLowerCase());
    }
    out.set(`${db.account}/${db.slug}`, {
      db,
      bySlug,
      byId,
      children,
      text,
      formerServices: new Set(),
    });
  }
  return out;
}

/** Whether the caller may read a database. */
export function canReadDatabase(db: SeedDatabase, caller: Caller | null): boolean {
  if (db.is_public) return true;
  return !!caller &&
    (caller.admin || (caller.account === db.account && caller.scopes.includes("read")));
}

/** Whether the caller may read a resource of a readable database. */
export function canReadResource(
  db: SeedDatabase,
  resource: SeedResource,
  caller: Caller | null,
): boolean {
  if (resource.is_public && db.is_public) return true;
  return !!caller &&
    (caller.admin || (caller.account === db.account && caller.scopes.includes("read")));
}

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The platform's error body `{error}`. */
export function errorResponse(status: number, error: string): Response {
  return json({ error }, status);
}

/** A resource as the API sends it. */
export function resourceJson(
  index: DatabaseIndex,
  resource: SeedResource,
  caller: Caller | null,
): Record<string, unknown> {
  const parent = resource.parent ? index.bySlug.get(resource.parent) : undefined;
  const visibleParent = parent && canReadResource(index.db, parent, caller) ? parent : undefined;
  return {
    id: resource.id,
    slug: resource.slug,
    type: resource.type,
    title: resource.title,
    metadata: resource.metadata,
    is_public: resource.is_public,
    parent: visibleParent ? { id: visibleParent.id, slug: visibleParent.slug } : null,
    created_at: resource.created,
    updated_at: resource.updated,
  };
}

/**
 * In strict mode, the 400 for names the spec does not list (query
 * parameters or body fields); undefined when all are known or the mode is lenient.
 */
export function unlisted(
  state: ArchiveState,
  what: string,
  names: Iterable<string>,
  known: (name: string) => boolean,
): Response | undefined {
  if (state.mode !== "strict") return undefined;
  const unknown = [...new Set(names)].filter((name) => !known(name));
  return unknown.length === 0
    ? undefined
    : errorResponse(400, `Unknown ${what}: ${unknown.join(", ")}`);
}

/** The harvesting handlers of a sandbox. */
export interface Harvesting {
  /** The OAI-PMH provider of each public site (`account/db`), made on first use. */
  providers: Map<string, OaiProvider>;
  /** The ResourceSync source over every public site with timestamps. */
  resourceSync: ResourceSyncSource;
}
