/**
 * Every resource of a database, optionally of one type or under one parent.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { pageNumberCursor } from "../paging/cursors.ts";
import type { PagedReadOptions } from "../paging/types.ts";
import { walkPages } from "../paging/walk_pages.ts";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";
import type { RawResource } from "./types.ts";

/** Filters of {@linkcode Archive.resources}, and the per-call signal and caps. */
export interface ResourcesParameters extends PagedReadOptions {
  /** Only resources of this type, e.g. `collection`. */
  type?: string;
  /** Only children of this resource (slug or UUID). */
  parent?: string;
  /** Resources per page. Default 100. */
  pageSize?: number;
  /** Send the API key, to list private resources of the key's account. */
  auth?: boolean;
}

/** The body of {@linkcode Archive.resources}, on the archive's shared state; documented there. */
export async function resources(
  context: ArchiveContext,
  parameters: ResourcesParameters = {},
): Promise<ColumnTable> {
  const { account, db } = requireTarget(context, "resources");
  const { type, parent, auth, signal, maxPages, maxRows } = parameters;
  const pageSize = parameters.pageSize ?? 100;
  const records: RawResource[] = [];
  // A resource seen on an earlier page (the list shifted while paging, or a
  // service repeating itself) is kept once.
  const seen = new Set<string>();
  const key = (row: RawResource) => String(row.id ?? row.slug);
  const pages = walkPages(
    {
      label: "archive resources",
      call: "archive.resources()",
      eager: true,
      cursor: pageNumberCursor(pageSize),
      fetch: (page, signal) =>
        send(context, {
          path: `/${segment(account)}/${segment(db)}/api/resources`,
          query: { type, parent, "page[number]": page, "page[size]": pageSize },
          auth,
          signal,
        }).then((response) => response.json<unknown>()),
      fingerprint: (body) => listRecords(body).map(key).join("\n"),
      read(body) {
        const rows = listRecords(body);
        return {
          rows: rows.filter((row) => !seen.has(key(row)) && !!seen.add(key(row))),
          received: rows.length,
          total: listTotal(body),
        };
      },
      shortfall: ({ total, rows }) =>
        total !== undefined && total !== rows
          ? `Resource list reported ${total} resources but ${rows} arrived`
          : undefined,
    },
    context.http,
    { signal, maxPages, maxRows },
  );
  for await (const page of pages) records.push(...page.rows);
  return resourceTable(records);
}
