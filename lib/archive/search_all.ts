/**
 * Every page of a search into one table.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { offsetCursor, pageNumberCursor } from "../paging/cursors.ts";
import type { PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import type { ArchiveContext } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";
import type { RawResource } from "./types.ts";
import { searchPage, type SearchParameters } from "./search.ts";

/** Parameters of {@linkcode Archive.searchAll}: those of a search without the page number, plus the caps. */
export type SearchAllParameters =
  & Omit<SearchParameters, "page" | "facet" | "offset" | "limit">
  & PagedReadOptions
  & {
    /**
     * How pages are asked for: `page` (default, `page[number]` and
     * `page[size]`) or `offset` (`page[offset]` and `page[limit]`, the
     * spec's alternative), for a platform that pages better one way.
     */
    paging?: "page" | "offset";
  };

/** The body of {@linkcode Archive.searchAll}, on the archive's shared state; documented there. */
export async function searchAll(
  context: ArchiveContext,
  parameters: SearchAllParameters = {},
): Promise<ColumnTable> {
  const records: RawResource[] = [];
  for await (const hits of searchHits(context, parameters, true)) records.push(...hits);
  return resourceTable(records);
}

/** The body of {@linkcode Archive.searchPages}; documented there. */
export async function* searchPages(
  context: ArchiveContext,
  parameters: SearchAllParameters = {},
): AsyncGenerator<ColumnTable> {
  // Not eager: a caller that breaks out sends no page ahead.
  for await (const hits of searchHits(context, parameters, false)) yield resourceTable(hits);
}

/**
 * The new hits of each page of a search, through the paging engine;
 * `eager` when the caller builds the table itself.
 */
async function* searchHits(
  context: ArchiveContext,
  parameters: SearchAllParameters,
  eager: boolean,
): AsyncGenerator<RawResource[]> {
  const { maxPages, maxRows, signal, paging, ...search } = parameters;
  const pageSize = parameters.pageSize ?? 100;
  const { pageSize: _size, ...terms } = search;
  const seen = new Set<string>();
  const key = (hit: RawResource) => String(hit.id ?? hit.slug);
  const common = {
    label: "archive search",
    call: eager ? "archive.searchAll()" : "archive.searchPages()",
    eager,
    fingerprint: (body: Record<string, unknown>) => listRecords(body, "hits").map(key).join("\n"),
    read(body: Record<string, unknown>) {
      const hits = listRecords(body, "hits");
      // A hit seen on an earlier page (the index shifted while paging) is kept once.
      const fresh = hits.filter((hit) => !seen.has(key(hit)) && !!seen.add(key(hit)));
      return { rows: fresh, received: hits.length, total: listTotal(body) };
    },
    shortfall: ({ total, rows }: { total?: number; rows: number }) =>
      total !== undefined && rows !== total
        ? `Search reported ${total} hits but ${rows} arrived; the index may have changed during paging`
        : undefined,
  };
  const limits = { signal, maxPages, maxRows };
  const pages = paging === "offset"
    ? walkPages(
      {
        ...common,
        cursor: offsetCursor(pageSize),
        fetch: (at, signal) => searchPage(context, { ...terms, ...at, signal }),
      },
      context.http,
      limits,
    )
    : walkPages(
      {
        ...common,
        cursor: pageNumberCursor(pageSize),
        fetch: (page, signal) => searchPage(context, { ...terms, page, pageSize, signal }),
      },
      context.http,
      limits,
    );
  for await (const page of pages) yield [...page.rows];
}
