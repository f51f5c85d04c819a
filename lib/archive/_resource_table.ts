/**
 * Resources (search hits, resource lists) into one table: the fixed columns,
 * then one column per metadata key seen, in order of first appearance.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TableBuilder } from "../table/build_table.ts";
import { defineSchema, type TableSchema } from "../table/schema.ts";
import { parentRef, type RawResource } from "./types.ts";
import type { ResourceRow } from "./rows.ts";

/** The fixed columns of a resource table. */
export const RESOURCE_SCHEMA: TableSchema<RawResource, ResourceRow> = defineSchema([
  { name: "id", type: "string", get: (r) => r.id ?? r.uuid, description: "UUID of the resource" },
  { name: "slug", type: "string", description: "slug, unique per database" },
  { name: "type", type: "string", description: "resource type: item, collection, ..." },
  { name: "title", type: "string", description: "title" },
  {
    name: "isPublic",
    type: "boolean",
    get: (r) => r.is_public ?? r.isPublic,
    description: "whether the resource is public",
  },
  {
    name: "parent",
    type: "string",
    get: (r) => parentRef(r.parent),
    description: "slug of the parent resource, or null",
  },
]);

/**
 * Builds the table. A metadata key whose value is a list in any record
 * becomes an `array` column (single values wrapped), other keys keep their
 * values as sent. A metadata key named like a fixed column is left out of
 * the extra columns (the fixed column wins).
 */
export function resourceTable(records: readonly RawResource[]): ColumnTable {
  const multi = new Set<string>();
  for (const record of records) {
    for (const key in record.metadata ?? {}) {
      if (Array.isArray(record.metadata![key])) multi.add(key);
    }
  }
  const builder = new TableBuilder(RESOURCE_SCHEMA, {
    dynamic: {
      read: (r) => r.metadata,
      type: (name) => (multi.has(name) ? "array" : "object"),
    },
  });
  builder.add(records);
  return builder.build();
}

/** The records of a list answer, whatever envelope it uses. */
export function listRecords(body: unknown, key = "data"): RawResource[] {
  if (Array.isArray(body)) return body as RawResource[];
  const record = (body ?? {}) as Record<string, unknown>;
  for (const name of [key, "data", "hits", "resources", "items"]) {
    if (Array.isArray(record[name])) return record[name] as RawResource[];
  }
  return [];
}

/** The total a list answer reports, if any. */
export function listTotal(body: unknown): number | undefined {
  const record = (body ?? {}) as Record<string, unknown>;
  const meta = (record.meta ?? {}) as Record<string, unknown>;
  const total = record.total ?? meta.total;
  if (typeof total === "number") return total;
  if (
    total && typeof total === "object" && typeof (total as { value: unknown }).value === "number"
  ) {
    return (total as { value: number }).value;
  }
  return undefined;
}
