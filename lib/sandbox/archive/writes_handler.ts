/**
 * The write endpoints of the sandbox: POST /api/{account}/databases, PATCH
 * /{account}/{db}/api/database (a service switch leaves a 307 behind),
 * POST, PATCH and DELETE of resources, CSV import (and its /dl/{db}/import
 * alias), POST /api/{account}/entities and GET /api/{account}/usage.
 * Every write needs a key with write scope on the account; a duplicate slug
 * answers 409. Each successful write is saved when writes persist.
 *
 * @module
 */

import { readRefusal, writeRefusal } from "./_auth.ts";
import { parseCsv } from "./_csv.ts";
import { addResource, nowSeconds, patchResource, removeResource } from "./_mutations.ts";
import { saveSnapshot } from "./_persist.ts";
import {
  type ArchiveState,
  type Caller,
  type DatabaseIndex,
  errorResponse,
  indexSeed,
  json,
  resourceJson,
  unlisted,
} from "./_state.ts";
import type { SeedDatabase, SeedEntity, SeedResource, SeedValue } from "./seed.ts";

const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** The body of POST /api/{account}/databases in the spec. */
const DATABASE_FIELDS = new Set(["slug", "title"]);
/** The entity fields of the spec (section 2). */
const ENTITY_FIELDS = new Set([
  "slug",
  "entityType",
  "prefLabel",
  "altLabels",
  "sameAs",
  "coordinates",
]);
/** The resource fields of the spec (POST sends slug, type, title, metadata; PATCH any of them). */
const RESOURCE_FIELDS = new Set(["slug", "type", "title", "metadata", "is_public", "parent"]);
const SERVICES = ["dl", "text", "records"];

/** The JSON object a write carries, or the 400 to answer. */
export async function body(request: Request): Promise<Record<string, unknown> | Response> {
  try {
    const value = await request.json();
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch { /* answered below */ }
  return errorResponse(400, "The body must be a JSON object");
}

async function saved(state: ArchiveState, response: Response): Promise<Response> {
  await saveSnapshot(state);
  return response;
}

function uuid(): string {
  return crypto.randomUUID();
}

/** POST /api/{account}/databases */
export async function createDatabaseHandler(
  state: ArchiveState,
  account: string,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, account);
  if (refused) return refused;
  const input = await body(request);
  if (input instanceof Response) return input;
  const refusedFields = unlisted(state, "field", Object.keys(input), (k) => DATABASE_FIELDS.has(k));
  if (refusedFields) return refusedFields;
  const { slug, title } = input;
  if (typeof slug !== "string" || !SLUG.test(slug) || typeof title !== "string") {
    return errorResponse(400, "slug (letters, digits, . _ -) and title are required");
  }
  if (state.databases.has(`${account}/${slug}`)) {
    return errorResponse(409, `Duplicate slug: database ${slug} exists`);
  }
  const db: SeedDatabase = {
    account,
    slug,
    title,
    is_public: input.is_public !== false,
    settings: { service: "dl", provider: account },
    resources: [],
  };
  state.seed.databases.push(db);
  state.databases.set(
    `${account}/${slug}`,
    indexSeed({ ...state.seed, databases: [db] }).get(`${account}/${slug}`)!,
  );
  return saved(state, json({ ...databaseJson(db), ...state.shapes.extraFields }, 201));
}

function databaseJson(db: SeedDatabase): Record<string, unknown> {
  return {
    account: db.account,
    slug: db.slug,
    title: db.title,
    is_public: db.is_public,
    settings: db.settings,
  };
}

/** PATCH /{account}/{db}/api/database */
export async function updateSettingsHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, index.db.account);
  if (refused) return refused;
  const input = await body(request);
  if (input instanceof Response) return input;
  const refusedFields = unlisted(state, "field", Object.keys(input), (k) => k === "settings");
  if (refusedFields) return refusedFields;
  const settings = input.settings;
  if (!settings || typeof settings !== "object" || Array.isArray(settings)) {
    return errorResponse(400, "settings must be an object");
  }
  const next = settings as Record<string, unknown>;
  if (next.service !== undefined && !SERVICES.includes(String(next.service))) {
    return errorResponse(400, `Unknown service: ${next.service}: use dl, text or records`);
  }
  const old = index.db.settings.service;
  Object.assign(index.db.settings, next);
  if (next.service !== undefined && next.service !== old) {
    index.formerServices.add(old);
    index.formerServices.delete(index.db.settings.service);
  }
  return saved(state, json({ ...databaseJson(index.db), ...state.shapes.extraFields }));
}

/** GET /api/{account}/{service}/{db}: the site's root on its service path (307 from old ones). */
export function sitePathHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  service: string,
): Response {
  const { account, slug, settings } = index.db;
  // The spec lists no such endpoint (only the old path's 307 after a switch).
  if (state.mode === "strict" && service === settings.service) {
    return errorResponse(404, `No endpoint GET /api/${account}/${service}/${slug}`);
  }
  if (service !== settings.service) {
    if (!index.formerServices.has(service)) return errorResponse(404, "Not found");
    return new Response(null, {
      status: 307,
      headers: { location: `${state.origin}/api/${account}/${settings.service}/${slug}` },
    });
  }
  return json(databaseJson(index.db));
}

function resourceInput(input: Record<string, unknown>, partial: boolean): string | undefined {
  if (!partial && (typeof input.slug !== "string" || !SLUG.test(input.slug))) {
    return "slug is required (letters, digits, . _ -)";
  }
  if (input.type !== undefined && input.type !== "item" && input.type !== "collection") {
    return "type must be item or collection";
  }
  if (input.title !== undefined && typeof input.title !== "string") return "title must be a string";
  if (
    input.metadata !== undefined &&
    (!input.metadata || typeof input.metadata !== "object" || Array.isArray(input.metadata))
  ) return "metadata must be an object";
  return undefined;
}

function newResource(input: Record<string, unknown>): SeedResource {
  const now = nowSeconds();
  return {
    id: uuid(),
    slug: String(input.slug),
    type: (input.type as SeedResource["type"]) ?? "item",
    title: String(input.title ?? input.slug),
    metadata: (input.metadata as Record<string, SeedValue>) ?? {},
    is_public: input.is_public !== false,
    parent: typeof input.parent === "string" ? input.parent : null,
    created: now,
    updated: now,
  };
}

/** POST, PATCH, DELETE of /{account}/{db}/api/resources[/{id}] */
export async function resourceWriteHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  id: string | undefined,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, index.db.account);
  if (refused) return refused;
  if (request.method === "POST" && id === undefined) {
    const input = await body(request);
    if (input instanceof Response) return input;
    const problem = resourceInput(input, false);
    if (problem) return errorResponse(400, problem);
    const unknownFields = unlisted(
      state,
      "field",
      Object.keys(input),
      (k) => RESOURCE_FIELDS.has(k),
    );
    if (unknownFields) return unknownFields;
    if (index.bySlug.has(String(input.slug))) {
      return errorResponse(409, `Duplicate slug: ${input.slug} exists in ${index.db.slug}`);
    }
    const resource = newResource(input);
    addResource(index, resource);
    return saved(state, json(resourceJson(index, resource, caller), 201));
  }
  const resource = id === undefined ? undefined : (index.bySlug.get(id) ?? index.byId.get(id));
  if (!resource) return errorResponse(404, `Resource not found: ${id}`);
  if (request.method === "DELETE") {
    removeResource(index, resource);
    return saved(state, new Response(null, { status: 204 }));
  }
  if (request.method !== "PATCH") {
    return errorResponse(405, `${request.method} is not allowed here`);
  }
  const input = await body(request);
  if (input instanceof Response) return input;
  const problem = resourceInput(input, true);
  if (problem) return errorResponse(400, problem);
  const unknownFields = unlisted(state, "field", Object.keys(input), (k) => RESOURCE_FIELDS.has(k));
  if (unknownFields) return unknownFields;
  if (input.slug !== undefined && input.slug !== resource.slug) {
    return errorResponse(400, "The slug of a resource cannot be changed");
  }
  patchResource(index, resource, input as Parameters<typeof patchResource>[2]);
  return saved(state, json(resourceJson(index, resource, caller)));
}

const FIXED = new Set(["slug", "type", "title", "is_public", "parent"]);

/** POST /{account}/{db}/api/import (and /dl/{db}/import): CSV rows create or update resources by slug. */
export async function importHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, index.db.account);
  if (refused) return refused;
  let rows: string[][];
  try {
    rows = parseCsv(await request.text());
  } catch (error) {
    return errorResponse(400, `Invalid CSV: ${(error as Error).message}`);
  }
  const [header, ...data] = rows;
  if (!header || !header.includes("slug")) return errorResponse(400, "The CSV has no slug column");
  const seen = new Map<string, number>();
  for (const [i, row] of data.entries()) {
    const slug = row[header.indexOf("slug")];
    if (seen.has(slug)) {
      return errorResponse(
        409,
        `Duplicate slug: ${slug} on rows ${seen.get(slug)! + 2} and ${i + 2}`,
      );
    }
    seen.set(slug, i);
  }
  let created = 0;
  let updated = 0;
  const errors: { row: number; error: string }[] = [];
  for (const [i, row] of data.entries()) {
    const record: Record<string, string> = {};
    header.forEach((name, column) => record[name] = row[column] ?? "");
    const metadata: Record<string, SeedValue> = {};
    for (const [name, value] of Object.entries(record)) {
      if (!FIXED.has(name) && value !== "") metadata[name] = value;
    }
    const input: Record<string, unknown> = {
      slug: record.slug,
      title: record.title || undefined,
      type: record.type || undefined,
      is_public: record.is_public ? record.is_public !== "false" : undefined,
      parent: record.parent || undefined,
      metadata,
    };
    const problem = resourceInput(input, false);
    if (problem) {
      errors.push({ row: i + 2, error: problem });
      continue;
    }
    const existing = index.bySlug.get(record.slug);
    if (existing) {
      patchResource(index, existing, { ...input, metadata } as Parameters<typeof patchResource>[2]);
      updated++;
    } else {
      addResource(index, newResource(input));
      created++;
    }
  }
  return saved(state, json({ created, updated, errors }));
}

/** POST /api/{account}/entities */
export async function createEntityHandler(
  state: ArchiveState,
  account: string,
  request: Request,
  caller: Caller | null,
): Promise<Response> {
  const refused = writeRefusal(caller, account);
  if (refused) return refused;
  const input = await body(request);
  if (input instanceof Response) return input;
  const unknownFields = unlisted(state, "field", Object.keys(input), (k) => ENTITY_FIELDS.has(k));
  if (unknownFields) return unknownFields;
  const { slug, entityType, prefLabel } = input;
  if (typeof slug !== "string" || !SLUG.test(slug) || typeof entityType !== "string") {
    return errorResponse(400, "slug and entityType are required");
  }
  if (!prefLabel || typeof prefLabel !== "object") {
    return errorResponse(400, "prefLabel must be an object of language to label");
  }
  const list = state.entities.get(account) ?? [];
  if (list.some((e) => e.slug === slug)) {
    return errorResponse(409, `Duplicate slug: entity ${slug} exists`);
  }
  const entity: SeedEntity = {
    slug,
    entityType: entityType as SeedEntity["entityType"],
    prefLabel: prefLabel as Record<string, string>,
    altLabels: Array.isArray(input.altLabels) ? input.altLabels.map(String) : [],
    sameAs: Array.isArray(input.sameAs) ? input.sameAs.map(String) : [],
    ...(input.coordinates ? { coordinates: input.coordinates as SeedEntity["coordinates"] } : {}),
  };
  const owner = state.seed.accounts.find((a) => a.slug === account);
  if (!owner) return errorResponse(404, `Account not found: ${account}`);
  if (owner.entities !== list) owner.entities = list;
  list.push(entity);
  state.entities.set(account, list);
  return saved(state, json(entity, 201));
}

/** GET /api/{account}/usage */
export function usageHandler(
  state: ArchiveState,
  account: string,
  caller: Caller | null,
): Response {
  const refused = readRefusal(caller, account);
  if (refused) return refused;
  const dbs = state.seed.databases.filter((d) => d.account === account);
  const assets = state.seed.assets.filter((a) => a.account === account);
  return json({
    account,
    databases: dbs.length,
    resources: dbs.reduce((n, d) => n + d.resources.length, 0),
    assets: assets.length,
    storage_bytes: assets.reduce((n, a) => n + (a.size ?? 0), 0),
    requests: state.log.length,
  });
}
