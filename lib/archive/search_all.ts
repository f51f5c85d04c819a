/**
 * Every page of a search into one table.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { pageNumberCursor } from "../paging/cursors.ts";
import type { PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import type { ArchiveContext } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";
import type { RawResource } from "./types.ts";
import { searchPage, type SearchParameters } from "./search.ts";

/** Parameters of {@linkcode Archive.searchAll}: those of a search without the page number, plus the caps. */
export type SearchAllParameters = Omit<SearchParameters, "page" | "facet"> & PagedReadOptions;

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
  const { maxPages, maxRows, signal, ...search } = parameters;
  const pageSize = parameters.pageSize ?? 100;
  const seen = new Set<string>();
  const key = (hit: RawResource) => String(hit.id ?? hit.slug);
  const pages = walkPages(
    {
      label: "archive search",
      call: eager ? "archive.searchAll()" : "archive.searchPages()",
      eager,
      cursor: pageNumberCursor(pageSize),
      fetch: (page, signal) => searchPage(context, { ...search, page, pageSize, signal }),
      fingerprint: (body) => listRecords(body, "hits").map(key).join("\n"),
      read(body) {
        const hits = listRecords(body, "hits");
        // A hit seen on an earlier page (the index shifted while paging) is kept once.
        const fresh = hits.filter((hit) => !seen.has(key(hit)) && !!seen.add(key(hit)));
        return {
          rows: fresh,
          received: hits.length,
          total: listTotal(body),
        };
      },
      shortfall: ({ total, rows }) =>
        total !== undefined && rows !== total
          ? `Search reported ${total} hits but ${rows} arrived; the index may have changed during paging`
          : undefined,
    },
    context.http,
    { signal, maxPages, maxRows },
  );
  for await (const page of pages) yield [...page.rows];
}
