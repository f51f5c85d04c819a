/**
 * Every page of a search into one table.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { ProtocolError } from "../http/errors.ts";
import type { ArchiveContext } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";
import type { RawResource } from "./types.ts";
import { searchPage, type SearchParameters } from "./search.ts";

/** Parameters of {@linkcode searchAll}: those of a search without the page number. */
export type SearchAllParameters = Omit<SearchParameters, "page" | "facet">;

/** Largest number of pages read before giving up on a service that never ends. */
const MAX_PAGES = 100_000;

/**
 * Reads every page of a search, with progress, and checks the total the
 * service reported against the hits that arrived (a shortfall is warned).
 *
 * @param context The archive's shared state.
 * @param parameters Query, filters, sort and page size (default 100).
 * @returns The hits table: `id, slug, type, title, isPublic, parent` and one column per metadata key.
 *
 * @example Every letter in the archive
 * ```ts ignore
 * const letters = await archive.searchAll({ filter: { "dcterms:type": "letter" } });
 * console.log(letters.numRows());
 * ```
 */
export async function searchAll(
  context: ArchiveContext,
  parameters: SearchAllParameters = {},
): Promise<ColumnTable> {
  const pageSize = parameters.pageSize ?? 100;
  const records: RawResource[] = [];
  const seen = new Set<string>();
  const task = context.http.progress("archive search", { unit: "rows" });
  let total: number | undefined;
  try {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const body = await searchPage(context, { ...parameters, page, pageSize });
      const hits = listRecords(body, "hits");
      total ??= listTotal(body);
      // Every hit seen before: the service ignored the page number. A page
      // that only starts with a seen hit is an index that shifted while paging.
      const key = (hit: RawResource) => String(hit.id ?? hit.slug);
      if (hits.length > 0 && hits.every((hit) => seen.has(key(hit)))) {
        throw new ProtocolError(`Search paging repeated page ${page - 1} at page ${page}`, {
          hint: "The service ignored page[number]; report it to the operator",
        });
      }
      for (const hit of hits) {
        // A hit seen on an earlier page (the index changed while paging) is kept once.
        if (seen.has(key(hit))) continue;
        seen.add(key(hit));
        records.push(hit);
      }
      task.update(records.length, { total, detail: `page ${page}` });
      if (hits.length < pageSize || (total !== undefined && records.length >= total)) break;
    }
    task.finish();
  } catch (error) {
    task.fail();
    throw error;
  }
  if (total !== undefined && records.length !== total) {
    context.http.warn(
      `Search reported ${total} hits but ${records.length} arrived; the index may have changed during paging`,
    );
  }
  return resourceTable(records);
}
