/**
 * `POST /api/aquarius/assets/metadata/query`, the way the node behaves
 * (spec section 4): a Typesense-style body goes to the engine as is; of an
 * Elasticsearch-style body only from, size, sort and term/terms inside
 * bool.filter and bool.must_not are translated and everything else is
 * ignored; the answer is an array with one result per DDO collection; a
 * filter the engine rejects gives `[]`.
 *
 * @module
 */

import type { Ddo } from "../../ocean/ddo.ts";
import { sentForm } from "./_credential_form.ts";
import { json, type OceanState, text } from "./_state.ts";
import {
  compileFilter,
  compileSort,
  compileText,
  FilterRejected,
  INDEX_FIELDS,
  type Predicate,
} from "./_typesense.ts";

const MAX_PER_PAGE = 250;
const COLLECTION = "op_ddo_v4.1.0";
const SECOND_COLLECTION = "op2_ddo_v4.1.0";

/** A search the engine runs, whatever the body form. */
interface Search {
  predicate: Predicate;
  sort?: (a: Ddo, b: Ddo) => number;
  start: number;
  perPage: number;
  page: number;
  q: string;
}

function fromTypesense(body: Record<string, unknown>): Search {
  const perPage = Math.min(Math.max(Number(body.per_page ?? 10) || 10, 0), MAX_PER_PAGE);
  const page = Math.max(Number(body.page ?? 1) || 1, 1);
  const filter = compileFilter(String(body.filter_by));
  const textMatch = compileText(
    body.q === undefined ? "*" : String(body.q),
    body.query_by === undefined ? undefined : String(body.query_by),
  );
  return {
    predicate: (ddo) => filter(ddo) && textMatch(ddo),
    sort: compileSort(body.sort_by === undefined ? undefined : String(body.sort_by)),
    start: (page - 1) * perPage,
    perPage,
    page,
    q: body.q === undefined ? "*" : String(body.q),
  };
}

function termPredicate(filter: unknown): Predicate | undefined {
  if (!filter || typeof filter !== "object") return undefined;
  const record = filter as Record<string, unknown>;
  const kind = "term" in record ? "term" : "terms" in record ? "terms" : undefined;
  if (!kind) return undefined; // match, exists, bool, ...: ignored by the node
  const inner = record[kind];
  if (!inner || typeof inner !== "object") return undefined;
  const [field, value] = Object.entries(inner)[0] ?? [];
  if (field === undefined) return undefined;
  const spec = INDEX_FIELDS[field];
  if (!spec) throw new FilterRejected(`field ${field} is not in the index`);
  const wanted = (kind === "terms" && Array.isArray(value) ? value : [value]).map((v) =>
    spec.numeric ? Number(v) : String(v).toLowerCase()
  );
  return (ddo) =>
    spec.read(ddo).some((have) =>
      wanted.includes(spec.numeric ? Number(have) : String(have).toLowerCase())
    );
}

function fromElasticsearch(body: Record<string, unknown>): Search {
  const size = Math.min(Math.max(Number(body.size ?? 10) || 0, 0), MAX_PER_PAGE);
  const from = Math.max(Number(body.from ?? 0) || 0, 0);
  const bool = ((body.query as Record<string, unknown> | undefined)?.bool ?? {}) as Record<
    string,
    unknown
  >;
  const keep = (Array.isArray(bool.filter) ? bool.filter : []).map(termPredicate)
    .filter((p): p is Predicate => !!p);
  const drop = (Array.isArray(bool.must_not) ? bool.must_not : []).map(termPredicate)
    .filter((p): p is Predicate => !!p);
  const sortObject = body.sort && typeof body.sort === "object" && !Array.isArray(body.sort)
    ? Object.entries(body.sort as Record<string, unknown>).map(([f, o]) => `${f}:${o}`).join(",")
    : undefined;
  return {
    predicate: (ddo) => keep.every((p) => p(ddo)) && !drop.some((p) => p(ddo)),
    sort: compileSort(sortObject),
    start: from,
    perPage: size,
    page: size > 0 ? Math.floor(from / size) + 1 : 1,
    q: "*",
  };
}

function collectionResult(
  extra: Record<string, unknown>,
  name: string,
  documents: Ddo[],
  search: Search,
  fixedPageSize: number | null,
) {
  const started = performance.now();
  let matches = documents.filter(search.predicate);
  if (search.sort) matches = [...matches].sort(search.sort);
  // A deployed node may force one fixed page whatever the body asks.
  const start = fixedPageSize === null ? search.start : 0;
  const perPage = fixedPageSize ?? search.perPage;
  return {
    facet_counts: [],
    found: matches.length,
    hits: matches.slice(start, start + perPage).map((document) => ({
      document: { ...sentForm(document), ...extra },
      highlight: {},
      highlights: [],
    })),
    out_of: documents.length,
    page: fixedPageSize === null ? search.page : 1,
    request_params: { collection_name: name, per_page: perPage, q: search.q },
    search_cutoff: false,
    search_time_ms: Math.round(performance.now() - started),
  };
}

/** Answers one metadata query. */
export async function handleQuery(request: Request, state: OceanState): Promise<Response> {
  if (state.faults.queryFailure) {
    return text("Error: search engine unavailable: connect ECONNREFUSED 127.0.0.1:8108", 500);
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch (error) {
    return text(`Unexpected token in JSON body: ${(error as Error).message}`, 500);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return text("Cannot read the query body", 500);
  }
  const record = body as Record<string, unknown>;
  let search: Search;
  try {
    search = "filter_by" in record ? fromTypesense(record) : fromElasticsearch(record);
  } catch (error) {
    if (error instanceof FilterRejected) return json([]);
    throw error;
  }
  const results = [
    collectionResult(
      state.extraFields,
      COLLECTION,
      state.indexed,
      search,
      state.faults.fixedPageSize,
    ),
  ];
  if (state.faults.duplicateCollection > 0) {
    results.push(collectionResult(
      state.extraFields,
      SECOND_COLLECTION,
      state.indexed.slice(0, state.faults.duplicateCollection),
      search,
      state.faults.fixedPageSize,
    ));
  }
  return json(results);
}
