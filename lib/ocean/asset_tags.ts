/**
 * The tags of an assets table with how many assets carry each.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { deriveProvenance } from "../table/derived_provenance.ts";
import { TidepoolError } from "../errors/errors.ts";
import { buildTable, defineSchema, type TableSchema } from "../table/mod.ts";

/** One row of {@linkcode tags}' table. */
export interface TagCountRow {
  /** The tag as written */
  tag: string | null;
  /** Assets that carry it */
  count: number | null;
}

/** The columns of {@linkcode tags}' table. */
export const TAG_COUNT_COLUMNS: TableSchema<TagCountRow, TagCountRow> = defineSchema([
  { name: "tag", type: "string", description: "The tag as written" },
  { name: "count", type: "integer", description: "Assets that carry it" },
]);

/**
 * The tags of an assets table (`tag, count`), most used first, ties in
 * alphabetical order. A tag repeated within one asset counts once; letter
 * case counts (`Weather` and `weather` are two tags), as the catalogue's
 * filter sees them.
 *
 * @param assets A table with a `tags` list column (`searchAssets`, `assetsTable`).
 * @returns One row per tag; its provenance, when the assets have one, is
 *   `tags` of theirs (see `provenance`).
 *
 * @example Tag counts
 * ```ts
 * import * as aq from "arquero";
 * const counts = tags(aq.table({ tags: [["sea", "tide"], ["sea"], []] }));
 * console.log(counts.objects()); // [{ tag: "sea", count: 2 }, { tag: "tide", count: 1 }]
 * ```
 */
export function tags(assets: ColumnTable): ColumnTable {
  if (!assets.columnNames().includes("tags")) {
    throw new TidepoolError("Cannot count tags: the table has no tags column", {
      hint: "Pass an assets table (searchAssets or assetsTable)",
    });
  }
  const counts = new Map<string, number>();
  for (const list of Array.from(assets.array("tags") as ArrayLike<unknown>)) {
    if (!Array.isArray(list)) continue;
    for (const tag of new Set(list.filter((t): t is string => typeof t === "string"))) {
      counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
  }
  const rows = [...counts].map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return deriveProvenance(buildTable(TAG_COUNT_COLUMNS, rows), {
    operation: "tags",
    inputs: { assets },
  });
}
