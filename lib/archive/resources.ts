/**
 * Every resource of a database, optionally of one type or under one parent.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { type ArchiveContext, requireTarget, segment, send } from "./_context.ts";
import { listRecords, listTotal, resourceTable } from "./_resource_table.ts";
import type { RawResource } from "./types.ts";

/** Filters of {@linkcode resources}. */
export interface ResourcesParameters {
  /** Only resources of this type, e.g. `collection`. */
  type?: string;
  /** Only children of this resource (slug or UUID). */
  parent?: string;
  /** Resources per page. Default 100. */
  pageSize?: number;
  /** Send the API key, to list private resources of the key's account. */
  auth?: boolean;
}

/**
 * Lists every resource, all pages, with progress; the reported total is
 * checked against what arrived.
 *
 * @param context The archive's shared state.
 * @param parameters Type, parent and page size.
 * @returns The table: `id, slug, type, title, isPublic, parent` and one column per metadata key.
 *
 * @example The collections of a database
 * ```ts ignore
 * const collections = await archive.resources({ type: "collection" });
 * ```
 */
export async function resources(
  context: ArchiveContext,
  parameters: ResourcesParameters = {},
): Promise<ColumnTable> {
  const { account, db } = requireTarget(context, "resources");
  const pageSize = parameters.pageSize ?? 100;
  const records: RawResource[] = [];
  const task = context.http.progress("archive resources", { unit: "rows" });
  let total: number | undefined;
  try {
    for (let page = 1;; page++) {
      const response = await send(context, {
        path: `/${segment(account)}/${segment(db)}/api/resources`,
        query: {
          type: parameters.type,
          parent: parameters.parent,
          "page[number]": page,
          "page[size]": pageSize,
        },
        auth: parameters.auth,
      });
      const body = response.json<unknown>();
      const rows = listRecords(body);
      total ??= listTotal(body);
      records.push(...rows);
      task.update(records.length, { total, detail: `page ${page}` });
      if (rows.length < pageSize || (total !== undefined && records.length >= total)) break;
    }
    task.finish();
  } catch (error) {
    task.fail();
    throw error;
  }
  if (total !== undefined && total !== records.length) {
    context.http.warn(`Resource list reported ${total} resources but ${records.length} arrived`);
  }
  return resourceTable(records);
}
