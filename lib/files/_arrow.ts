/**
 * Arrow IPC table files (`.arrow`, `.feather`), written as the Parquet files
 * are (`lib/dataset/_arrow_columns.ts` decides how each type is stored), so
 * every column comes back with its tidepool type; with `lists` given, list
 * cells are flattened to text first. The table's provenance goes in the
 * schema metadata.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { columnTypes, tableFromColumns } from "../table/build_table.ts";
import { columnsToArrowIPC, readArrowIPC } from "../dataset/_arrow_columns.ts";
import { PROVENANCE_KEY, restoreProvenance } from "../table/_provenance_json.ts";
import { type FlatLists, scalarCells } from "./_list_cells.ts";

/**
 * The bytes of an Arrow IPC file of the table.
 *
 * @param table The table.
 * @param flat How list cells become text.
 * @param flattenLists Whether lists become text (else they stay lists).
 * @param provenance The provenance JSON to keep in the schema metadata, if any.
 */
export function encodeArrow(
  table: ColumnTable,
  flat: FlatLists,
  flattenLists: boolean,
  provenance: string | undefined,
): Uint8Array {
  const flattened = flattenLists ? scalarCells(table, ["array"], flat) : table;
  const columns = Object.entries(columnTypes(flattened)).map(([name, type]) => ({
    name,
    type,
    values: Array.from(flattened.array(name) as ArrayLike<unknown>),
  }));
  return columnsToArrowIPC(columns, provenance ? { [PROVENANCE_KEY]: provenance } : {}, "file");
}

/** The table in an Arrow IPC file, with the provenance its metadata kept. */
export function decodeArrow(bytes: Uint8Array, path: string): ColumnTable {
  const { columns, metadata } = readArrowIPC(bytes);
  const table = tableFromColumns(columns);
  const from = metadata.get(PROVENANCE_KEY);
  return from === undefined ? table : restoreProvenance(table, from, `${path} metadata`);
}
