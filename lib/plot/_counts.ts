/**
 * Counts for charts: from a table that already has a `count` column (stats,
 * analytics, facets) or from raw hits (one row per expression).
 *
 * @module
 */

import { type ColumnTable, op } from "arquero";
import { TidepoolError } from "../errors/errors.ts";

/** Checks that a table has the columns a chart needs. */
export function requireColumns(
  table: ColumnTable,
  columns: readonly string[],
  chart: string,
): void {
  const missing = columns.filter((name) => !table.columnNames().includes(name));
  if (missing.length) {
    throw new TidepoolError(`Cannot draw the ${chart}: the table lacks ${missing.join(", ")}`, {
      details: table.columnNames().join(", ") || "no columns",
      // The table is the caller's: no server is involved.
      detailsLabel: "The table has",
      hint: "Pass the table the chart documents (analytics, stats, books or search hits)",
    });
  }
}

/**
 * Rows `{...keys, count}`: sums `countColumn` when the table has it,
 * otherwise counts rows. Rows with a null key are left out.
 */
export function countBy(
  table: ColumnTable,
  keys: readonly string[],
  chart: string,
  countColumn = "count",
): Record<string, unknown>[] {
  requireColumns(table, keys, chart);
  const grouped = table.columnNames().includes(countColumn)
    ? table.groupby(...keys).rollup({ count: op.sum(countColumn) })
    : table.groupby(...keys).count({ as: "count" });
  return (grouped.objects() as Record<string, unknown>[]).filter((row) =>
    keys.every((key) => row[key] !== null && row[key] !== undefined)
  );
}
