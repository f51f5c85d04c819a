/**
 * GET /{account}/{db}/api/search: `q` (terms, `"phrases"`, `OR`, `-exclude`),
 * `facet`, `filter[key]` (repeated = OR), `sort` (`-` descending),
 * `page[number]`/`page[size]` or `page[limit]`/`page[offset]`, and
 * `expand=entities`. The deprecated `limit`, `offset`, `dir` and bare
 * metadata parameters answer 400, so a client that sends them is caught.
 *
 * @module
 */

import {
  type ArchiveState,
  type Caller,
  canReadResource,
  type DatabaseIndex,
  errorResponse,
  json,
  resourceJson,
} from "./_state.ts";
import type { SeedEntity, SeedResource } from "./seed.ts";

const DEPRECATED = new Set(["limit", "offset", "dir"]);
const KNOWN = new Set(["q", "facet", "sort", "expand"]);

/** Answers a search. */
export function searchHandler(
  state: ArchiveState,
  index: DatabaseIndex,
  url: URL,
  caller: Caller | null,
): Response {
  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (DEPRECATED.has(name)) {
      return errorResponse(
        400,
        `Deprecated parameter ${name}: use page[size], page[number] and sort`,
      );
    }
    if (!KNOWN.has(name) && !/^(filter|page)\[[^\]]+\]$/.test(name)) {
      return errorResponse(400, `Unknown or deprecated parameter ${name}: use filter[${name}]`);
    }
  }
  const expanded: string[] = [];
  const entities = params.get("expand") === "entities"
    ? state.entities.get(index.db.account) ?? []
    : [];
  const groups = parseQuery(params.get("q") ?? "", entities, expanded);
  const filters = new Map<string, string[]>();
  for (const [name, value] of params) {
    const match = /^filter\[(.+)\]$/.exec(name);
    if (match) filters.set(match[1], [...(filters.get(match[1]) ?? []), value]);
  }
  let hits = index.db.resources.filter((resource) =>
    canReadResource(index.db, resource, caller) &&
    matchesQuery(index.text.get(resource)!, groups) &&
    matchesFilters(resource, filters)
  );
  const sort = params.get("sort");
  if (sort) hits = sortBy(hits, sort);
  const facets: Record<string, { value: string; count: number }[]> = {};
  for (const key of params.getAll("facet")) facets[key] = facetCounts(hits, key);
  const size = Number(params.get("page[size]") ?? params.get("page[limit]") ?? 20);
  const offset = params.has("page[offset]")
    ? Number(params.get("page[offset]"))
    : (Number(params.get("page[number]") ?? 1) - 1) * size;
  if (!(size >= 1 && size <= 1000) || !(offset >= 0)) {
    return errorResponse(400, "page[size] must be 1 to 1000 and page[number] 1 or more");
  }
  return json({
    hits: hits.slice(offset, offset + size).map((r) => ({
      ...resourceJson(index, r, caller),
      ...state.shapes.extraFields,
    })),
    total: hits.length,
    page: { number: Math.floor(offset / size) + 1, size },
    facets,
    ...(params.get("expand") === "entities" ? { expanded } : {}),
  });
}

/** A query as AND of OR-groups of lowercased needles; `negate` groups exclude. */
interface Group {
  needles: string[];
  negate: boolean;
}

function parseQuery(q: string, entities: SeedEntity[], expanded: string[]): Group[] {
  const tokens = [...q.matchAll(/(-?)"([^"]*)"|(\S+)/g)].map((m) => ({
    negate: m[1] === "-" || (m[3]?.startsWith("-") ?? false),
    text: m[2] ?? m[3]!.replace(/^-/, ""),
    phrase: m[2] !== undefined,
  }));
  const whole = entityLabels(entities, q.replace(/"/g, "").trim());
  if (whole && tokens.every((t) => !t.negate)) {
    expanded.push(...whole);
    return [{ needles: whole.map((l) => l.toLowerCase()), negate: false }];
  }
  const groups: Group[] = [];
  let joinNext = false;
  for (const token of tokens) {
    if (!token.phrase && token.text === "OR") {
      joinNext = groups.length > 0;
      continue;
    }
    let needles = [token.text.toLowerCase()];
    const labels = token.negate ? undefined : entityLabels(entities, token.text);
    if (labels) {
      expanded.push(...labels.filter((l) => !expanded.includes(l)));
      needles = labels.map((l) => l.toLowerCase());
    }
    if (joinNext && !token.negate) groups.at(-1)!.needles.push(...needles);
    else groups.push({ needles, negate: token.negate });
    joinNext = false;
  }
  return groups;
}

function entityLabels(entities: SeedEntity[], text: string): string[] | undefined {
  const wanted = text.toLowerCase();
  if (!wanted) return undefined;
  const entity = entities.find((e) =>
    [...Object.values(e.prefLabel), ...e.altLabels].some((l) => l.toLowerCase() === wanted)
  );
  return entity
    ? [...new Set([...Object.values(entity.prefLabel), ...entity.altLabels])]
    : undefined;
}

function matchesQuery(text: string, groups: Group[]): boolean {
  return groups.every((group) =>
    group.negate
      ? !group.needles.some((n) => text.includes(n))
      : group.needles.some((n) => text.includes(n))
  );
}

function values(resource: SeedResource, key: string): string[] {
  if (key === "type") return [resource.type];
  if (key === "parent") return resource.parent ? [resource.parent] : [];
  const value = resource.metadata[key];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

function matchesFilters(resource: SeedResource, filters: Map<string, string[]>): boolean {
  for (const [key, wanted] of filters) {
    const have = values(resource, key);
    if (!wanted.some((w) => have.includes(w))) return false;
  }
  return true;
}

function sortBy(hits: SeedResource[], sort: string): SeedResource[] {
  const descending = sort.startsWith("-");
  const key = sort.replace(/^-/, "");
  const read = (r: SeedResource): string | number | undefined => {
    if (
      key === "title" || key === "slug" || key === "type" || key === "created" || key === "updated"
    ) {
      return r[key];
    }
    const value = r.metadata[key];
    return Array.isArray(value) ? value[0] : value;
  };
  return [...hits].sort((a, b) => {
    const x = read(a);
    const y = read(b);
    if (x === undefined) return y === undefined ? 0 : 1;
    if (y === undefined) return -1;
    const order = typeof x === "number" && typeof y === "number"
      ? x - y
      : String(x) < String(y)
      ? -1
      : String(x) > String(y)
      ? 1
      : 0;
    return descending ? -order : order;
  });
}

function facetCounts(hits: SeedResource[], key: string): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const hit of hits) {
    for (const value of values(hit, key)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
}
