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
import { ProtocolError } from "../errors/errors.ts";
import { pageNumberCursor } from "../paging/cursors.ts";
import { walkPages } from "../paging/walk_pages.ts";
import { TableBuilder } from "../table/mod.ts";
import { ASSET_COLUMNS } from "./assets_table.ts";
import { checkForms, unknownForm } from "./_ddo_forms.ts";
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
  let found = 0;
  let duplicates = 0;
  let overlapping = 0;
  let budget = Infinity;
  let stopped: string | undefined;
  // Only a node that filled the first page as asked is trusted to page
  // regularly: its later pages are requested ahead (several at once with
  // pacing off; the pacer still decides when each starts). One forcing its
  // own page size is walked one page at a time.
  let regular = false;
  const numbered = pageNumberCursor(perPage);
  const { minIntervalMs, concurrency } = http.pacing;
  const pages = walkPages<number, TypesenseResult[], Ddo>(
    {
      label: "searchAssets",
      call: "node.searchAssets()",
      eager: true,
      readAhead: minIntervalMs === 0 ? concurrency : 1,
      count: "received",
      onRepeat: "stop",
      cursor: {
        ...numbered,
        // A short page is not the end: the node may force a smaller page size.
        advance: (page, read) => read.done ? null : page + 1,
        predict: (page) =>
          regular && page < Math.min(budget, Math.ceil(found / perPage)) ? page + 1 : null,
      },
      fetch: (page, signal) => runQuery(http, body.page(page, perPage), signal),
      fingerprint: (results) =>
        results.flatMap((result) => result.hits.map((hit) => String(hit?.document?.id))).join("\n"),
      read(results, page, state) {
        if (results.length === 0) {
          if (page === 1) {
            throw new ProtocolError(
              "No collection answered the metadata query: the node returned an empty array, not a result with found 0",
              {
                details: body.describe,
                hint:
                  "The search engine most likely rejected the filter (a field that is not in the index, " +
                  "or a syntax error in raw); check the field names, or try node.query() with the same body",
              },
            );
          }
          stopped = `page ${page} answered an empty array (no collection answered)`;
          return { rows: [], done: true };
        }
        const documents: Ddo[] = [];
        for (const result of results) {
          for (const hit of result.hits) if (hit?.document) documents.push(hit.document);
        }
        if (page === 1) {
          found = results.reduce((sum, result) => sum + (Number(result.found) || 0), 0);
          // Enough pages for every document even if the node sends fewer per page.
          budget = Math.ceil(found / Math.max(1, Math.min(perPage, documents.length || perPage))) +
            1;
          regular = documents.length === Math.min(perPage, found);
        }
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
        const received = state.received + documents.length;
        let done = received - overlapping >= found;
        if (!done && documents.length === 0) {
          stopped = `page ${page} came back empty`;
          done = true;
        } else if (!done && page >= budget) {
          stopped = `the walk reached ${page} pages, more than ${found} documents need`;
          done = true;
        }
        return {
          rows,
          received: documents.length,
          total: found,
          done,
        };
      },
      summary: ({ pages }) =>
        duplicates > 0
          ? `${builder.rowCount} rows, ${duplicates} duplicates dropped`
          : `${pages} pages`,
      shortfall: (state, repeated) => {
        const arrived = state.received - overlapping;
        if (arrived >= found) return undefined;
        const why = repeated ?? stopped;
        return `searchAssets received ${arrived} of the ${found} documents the node reported as found` +
          (overlapping ? ` (${overlapping} came again on later pages)` : "") +
          (why ? `: ${why}` : "") +
          `. The table holds what was received; narrow the filter (type, tags, owner) so every match fits in the pages the node serves`;
      },
    },
    http,
    { signal: options.signal, maxPages: options.maxPages, maxRows: options.maxRows },
  );
  const unknown: Ddo[] = [];
  for await (const page of pages) {
    for (const ddo of page.rows) {
      if (unknownForm(ddo)) {
        checkForms([ddo], http, options.strict); // throws at once when strict
        unknown.push(ddo);
      }
    }
    builder.add(page.rows);
  }
  checkForms(unknown, http, false);
  return builder.build();
}
