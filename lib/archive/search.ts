/**
 * One page of a search, with facets and entity expansion.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { QueryValue } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { buildTable } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";

/** Parameters of {@linkcode Archive.search}; only the modern ones of the service. */
export interface SearchParameters {
  /** Search terms, web-search syntax (`"a phrase"`, `OR`, `-exclude`). */
  q?: string;
  /** Metadata keys to aggregate. */
  facet?: string | readonly string[];
  /** Metadata filters; several values of one key mean OR, keys combine with AND. */
  filter?: Record<string, string | number | readonly (string | number)[]>;
  /** Sort key; prefix `-` for descending, e.g. `-dcterms:date`. */
  sort?: string;
  /** Page number, from 1. Default 1. */
  page?: number;
  /** Hits per page. Default 20. */
  pageSize?: number;
  /**
   * The alternative paging of the spec: skip this many hits
   * (`page[offset]`), from 0. Not with `page`.
   */
  offset?: number;
  /** With `offset`: at most this many hits (`page[limit]`). Not with `pageSize`. */
  limit?: number;
  /** When the query matches an authority label, search all its labels too. */
  expandEntities?: boolean;
  /** Send the API key, to search private data of the key's account. */
  auth?: boolean;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** What {@linkcode Archive.search} returns. */
export interface SearchResult {
  /** The hits: `id, slug, type, title, isPublic, parent`, then one column per metadata key. */
  hits: ColumnTable;
  /** Facet key to a table `value, count`, most frequent first. */
  facets: Map<string, ColumnTable>;
  /** The number of hits across all pages, as the service reports it. */
  total: number;
  /** The labels an entity expansion searched for (empty without expansion). */
  expanded: string[];
}

/** Columns of a facet table. */
export const FACET_SCHEMA: TableSchema<{ value: unknown; count: unknown }> = defineSchema([
  { name: "value", type: "string", description: "the metadata value" },
  { name: "count", type: "number", description: "hits with that value" },
]);

/** The query string of a search, modern parameters only. */
export function searchQuery(parameters: SearchParameters): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  if (parameters.q !== undefined && parameters.q !== "") query.q = parameters.q;
  if (parameters.facet !== undefined) {
    query.facet = typeof parameters.facet === "string" ? [parameters.facet] : [...parameters.facet];
  }
  for (const [key, value] of Object.entries(parameters.filter ?? {})) {
    query[`filter[${key}]`] = Array.isArray(value) ? [...value] : [value as string | number];
  }
  if (parameters.sort) query.sort = parameters.sort;
  const byOffset = parameters.offset !== undefined || parameters.limit !== undefined;
  if (byOffset && (parameters.page !== undefined || parameters.pageSize !== undefined)) {
    throw new TidepoolError(
      "Cannot search: give page and pageSize, or offset and limit, not both",
      {
        hint: "page[number]/page[size] and page[offset]/page[limit] are two ways to page; pick one",
      },
    );
  }
  if (parameters.page !== undefined) query["page[number]"] = positive(parameters.page, "page");
  if (parameters.pageSize !== undefined) {
    query["page[size]"] = positive(parameters.pageSize, "pageSize");
  }
  if (parameters.offset !== undefined) {
    query["page[offset]"] = positive(parameters.offset + 1, "offset") - 1;
  }
  if (parameters.limit !== undefined) query["page[limit]"] = positive(parameters.limit, "limit");
  if (parameters.expandEntities) query.expand = "entities";
  return query;
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new TidepoolError(`Invalid ${name}: ${value}`, {
      hint: "Give a whole number of 1 or more",
    });
  }
  return value;
}

/** The body of {@linkcode Archive.search}, on the archive's shared state; documented there. */
export async function search(
  context: ArchiveContext,
  parameters: SearchParameters = {},
): Promise<SearchResult> {
  const body = await searchPage(context, parameters);
  return {
    hits: resourceTable(listRecords(body, "hits")),
    facets: facetTables(body),
    total: listTotal(body) ?? listRecords(body, "hits").length,
    expanded: expandedLabels(body),
  };
}

/** Fetches one search page as parsed JSON. */
export async function searchPage(
  context: ArchiveContext,
  parameters: SearchParameters,
): Promise<Record<string, unknown>> {
  const { account, db } = requireTarget(context, "search");
  const response = await send(context, {
    path: `/${segment(account)}/${segment(db)}/api/search`,
    query: searchQuery(parameters),
    auth: parameters.auth,
    signal: parameters.signal,
  });
  const body = response.json<unknown>();
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new ProtocolError(`Search answered something other than a JSON object: ${response.url}`, {
      details: response.text(),
      hint: "Check the base URL; it should be the archive platform's address",
    });
  }
  return body as Record<string, unknown>;
}

/** Facets as tables: accepts `{key: [{value, count}]}` and `{key: {value: count}}`. */
export function facetTables(body: Record<string, unknown>): Map<string, ColumnTable> {
  const facets = new Map<string, ColumnTable>();
  const raw = (body.facets ?? {}) as Record<string, unknown>;
  for (const [key, buckets] of Object.entries(raw)) {
    const rows = Array.isArray(buckets)
      ? buckets.map((b) => ({ value: b?.value ?? b?.key, count: b?.count ?? b?.doc_count }))
      : Object.entries((buckets ?? {}) as Record<string, unknown>).map(([value, count]) => ({
        value,
        count,
      }));
    rows.sort((a, b) =>
      Number(b.count) - Number(a.count) || String(a.value).localeCompare(String(b.value))
    );
    facets.set(key, buildTable(FACET_SCHEMA, rows));
  }
  return facets;
}

function expandedLabels(body: Record<string, unknown>): string[] {
  const expanded = body.expanded;
  return Array.isArray(expanded) ? expanded.map(String) : [];
}
