/**
 * Walks every page of a metadata search into the assets table. The node is
 * known to misbehave in three ways, and none may end in a silent shortfall or
 * an endless loop: it may force one fixed page (the next page repeats the
 * previous one), stop short of `found`, or answer `[]` when the search engine
 * rejected the filter (no collection answered, which is not zero matches).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { HttpClient } from "../http/client.ts";
import { ProtocolError } from "../http/errors.ts";
import { TableBuilder } from "../table/mod.ts";
import { ASSET_COLUMNS } from "./assets_table.ts";
import type { Ddo } from "./ddo.ts";
import { runQuery } from "./_run_query.ts";
import type { TypesenseResult } from "./types.ts";
import {
  type AssetFilter,
  clientCheck,
  type SearchAssetsOptions,
  searchBody,
} from "./_search_body.ts";

const MAX_PAGE_SIZE = 250;

/** Runs the search, every page, and builds the table. */
export async function searchAssetsTable(
  http: HttpClient,
  filter: AssetFilter,
  options: SearchAssetsOptions = {},
): Promise<ColumnTable> {
  const body = searchBody(filter, options);
  const keep = clientCheck(filter, options);
  const perPage = Math.max(1, Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE));
  const builder = new TableBuilder(ASSET_COLUMNS);
  const seen = new Set<string>();
  const task = http.progress("searchAssets", { unit: "rows" });
  let found = 0;
  let received = 0;
  let duplicates = 0;
  let overlapping = 0;
  let previous = "";
  let maxPages = Infinity;
  let stopped: string | undefined;
  // Pages are numbered and `found` is known after the first, so the next
  // ones are requested while one is read (several at once with pacing off;
  // the pacer still decides when each starts). A page is only requested
  // ahead if the walk needs it when every page is full.
  const { minIntervalMs, concurrency } = http.pacing;
  const window = minIntervalMs === 0 ? concurrency : 1;
  const ahead = new Map<number, Promise<TypesenseResult[]>>();
  // Cancels the pages requested ahead when the walk stops before reading them.
  const stopAhead = new AbortController();
  let regular = false;
  const fetchPage = (page: number) => {
    const pending = ahead.get(page) ?? runQuery(http, { ...body, page, per_page: perPage });
    ahead.delete(page);
    // Only a node that filled the first page as asked is trusted to page
    // regularly: one forcing its own page size is walked one page at a time.
    const last = regular ? Math.min(maxPages, Math.ceil(found / perPage)) : 0;
    for (let next = page + 1; next <= last && ahead.size < window; next++) {
      if (ahead.has(next)) continue;
      const request = runQuery(http, { ...body, page: next, per_page: perPage }, stopAhead.signal);
      request.catch(() => {}); // read later, or dropped when the walk stops
      ahead.set(next, request);
    }
    return pending;
  };
  try {
    for (let page = 1;; page++) {
      const results = await fetchPage(page);
      if (results.length === 0) {
        if (page === 1) {
          throw new ProtocolError(
            "No collection answered the metadata query: the node returned an empty array, not a result with found 0",
            {
              details: `filter_by: ${body.filter_by || "(none)"}; q: ${body.q}`,
              hint:
                "The search engine most likely rejected the filter (a field that is not in the index, " +
                "or a syntax error in raw); check the field names, or try node.query() with the same body",
            },
          );
        }
        stopped = `page ${page} answered an empty array (no collection answered)`;
        break;
      }
      if (page === 1) {
        found = results.reduce((sum, result) => sum + (Number(result.found) || 0), 0);
        task.update(0, { total: found });
        // Enough pages for every document even if the node sends fewer per page.
        const firstCount = results.reduce((sum, result) => sum + result.hits.length, 0);
        maxPages = Math.ceil(found / Math.max(1, Math.min(perPage, firstCount || perPage))) + 1;
        regular = firstCount === Math.min(perPage, found);
      }
      const documents: Ddo[] = [];
      for (const result of results) {
        for (const hit of result.hits) if (hit?.document) documents.push(hit.document);
      }
      const key = documents.map((ddo) => ddo.id).join(",");
      if (documents.length > 0 && key === previous) {
        stopped = `page ${page} repeated page ${page - 1} (the node ignores paging)`;
        break;
      }
      previous = key;
      received += documents.length;
      const rows: Ddo[] = [];
      const onThisPage = new Set<string>();
      for (const ddo of documents) {
        const did = typeof ddo.id === "string" ? ddo.id : JSON.stringify(ddo.id);
        if (seen.has(did)) {
          duplicates++;
          // Seen on an earlier page: the pages overlap, so a document may have
          // slipped past; it does not count towards `found`.
          if (!onThisPage.has(did)) overlapping++;
          continue;
        }
        seen.add(did);
        onThisPage.add(did);
        if (keep(ddo)) rows.push(ddo);
      }
      builder.add(rows);
      task.update(received, { detail: `page ${page}` });
      if (received - overlapping >= found) break;
      if (documents.length === 0) {
        stopped = `page ${page} came back empty`;
        break;
      }
      if (page >= maxPages) {
        stopped = `the walk reached ${page} pages, more than ${found} documents need`;
        break;
      }
    }
  } catch (error) {
    task.fail(error instanceof Error ? error.message.split("\n")[0] : String(error));
    throw error;
  } finally {
    stopAhead.abort(); // only pages not read are still pending
  }
  if (received - overlapping < found) {
    http.warn(
      `searchAssets received ${
        received - overlapping
      } of the ${found} documents the node reported as found` +
        (overlapping ? ` (${overlapping} came again on later pages)` : "") +
        (stopped ? `: ${stopped}` : "") +
        `. The table holds what was received; narrow the filter (type, tags, owner) so every match fits in the pages the node serves`,
    );
  }
  task.finish(
    duplicates > 0 ? `${builder.rowCount} rows, ${duplicates} duplicates dropped` : undefined,
  );
  return builder.build();
}
