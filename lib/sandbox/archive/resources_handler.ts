/**
 * GET /{account}/{db}/api/resources (list with `type`, `parent`, paging),
 * GET /{account}/{db}/api/resources/{id} (by slug or UUID; `format` =
 * `jsonld`, `rico`, `ttl`, `rico-ttl` for linked data) and the data URI
 * GET /{account}/{db}/data/{id} (JSON-LD or Turtle by Accept; a browser
 * gets 303 to the detail page).
 *
 * @module
 */

import { toJsonLd, toTurtle } from "./_linked_data.ts";
import { dataUri, triplesFor } from "./_mapping.ts";
import {
  type ArchiveState,
  type Caller,
  canReadResource,
  type DatabaseIndex,
  errorResponse,
  json,
  resourceJson,
  unlisted,
} from "./_state.ts";
import type { SeedResource } from "./seed.ts";

/** Answers the resource list. */
export function listResourcesHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  url: URL,
  caller: Caller | null,
): Response {
  const params = url.searchParams;
  const refused = unlisted(
    state,
    "parameter",
    params.keys(),
    (k) => k === "type" || k === "parent" || /^page\[[a-z]+\]$/.test(k),
  );
  if (refused) return refused;
  const type = params.get("type");
  const parentParam = params.get("parent");
  const parent = parentParam
    ? (index.bySlug.get(parentParam) ?? index.byId.get(parentParam))
    : undefined;
  if (parentParam && (!parent || !canReadResource(index.db, parent, caller))) {
    return errorResponse(404, `Parent not found: ${parentParam}`);
  }
  const rows = index.db.resources.filter((r) =>
    canReadResource(index.db, r, caller) && (!type || r.type === type) &&
    (!parent || r.parent === parent.slug)
  );
  const size = Number(params.get("page[size]") ?? 50);
  const number = Number(params.get("page[number]") ?? 1);
  if (!(size >= 1 && size <= 1000) || !(number >= 1)) {
    return errorResponse(400, "page[size] must be 1 to 1000 and page[number] 1 or more");
  }
  return json({
    data: rows.slice((number - 1) * size, number * size).map((r) => ({
      ...resourceJson(index, r, caller),
      ...state.shapes.extraFields,
    })),
    total: rows.length,
    page: { number, size },
  });
}

function find(index: DatabaseIndex, id: string, caller: Caller | null): SeedResource | undefined {
  const resource = index.bySlug.get(id) ?? index.byId.get(id);
  return resource && canReadResource(index.db, resource, caller) ? resource : undefined;
}

/** Answers one resource, or its linked data. */
export function getResourceHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  id: string,
  url: URL,
  caller: Caller | null,
): Response {
  const refused = unlisted(state, "parameter", url.searchParams.keys(), (k) => k === "format");
  if (refused) return refused;
  const resource = find(index, id, caller);
  if (!resource) return errorResponse(404, `Resource not found: ${id}`);
  const format = url.searchParams.get("format");
  if (!format) {
    return json({ ...resourceJson(index, resource, caller), ...state.shapes.extraFields });
  }
  return linkedData(state, index, resource, format, caller);
}

function linkedData(
  state: ArchiveState,
  index: DatabaseIndex,
  resource: SeedResource,
  format: string,
  caller: Caller | null,
): Response {
  const profile = format.startsWith("rico") ? "rico" : "schema";
  if (!["jsonld", "rico", "ttl", "rico-ttl"].includes(format)) {
    return errorResponse(400, `Unknown format: ${format}: use jsonld, rico, ttl or rico-ttl`);
  }
  const triples = triplesFor(state, index, resource, profile, caller);
  if (format.endsWith("ttl")) {
    return new Response(toTurtle(triples), {
      headers: { "content-type": "text/turtle; charset=utf-8" },
    });
  }
  const doc = toJsonLd(triples, dataUri(state, index, resource.slug));
  return json(doc, 200, { "content-type": "application/ld+json; charset=utf-8" });
}

/** Answers the data URI of a resource. */
export function dataUriHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  id: string,
  request: Request,
  caller: Caller | null,
): Response {
  const resource = find(index, id, caller);
  if (!resource) return errorResponse(404, `Resource not found: ${id}`);
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("text/html")) {
    return new Response(null, {
      status: 303,
      headers: { location: `/${index.db.account}/${index.db.slug}/resource/${resource.slug}` },
    });
  }
  return linkedData(state, index, resource, accept.includes("turtle") ? "ttl" : "jsonld", caller);
}
