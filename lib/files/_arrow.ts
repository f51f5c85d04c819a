/**
 * Arrow IPC table files (`.arrow`, `.feather`): types kept, objects (and,
 * when `lists` is given, lists) as text, and the table's provenance in the
 * schema metadata.
 *
 * @module
 */

import { type ColumnTable, toArrow } from "arquero";
import { tableToIPC } from "@uwdata/flechette";
import { tableFromColumns } from "../table/build_table.ts";
import { readArrowIPC } from "../dataset/_arrow_columns.ts";
import { PROVENANCE_KEY, restoreProvenance } from "../table/_provenance_json.ts";
import { type FlatLists, scalarCells } from "./_list_cells.ts";

/**
 * The bytes of an Arrow IPC file of the table.
 *
 * @param table The table.
 * @param flat How list cells become text.
 * @param flattenLists Whether lists become text too (else only objects do).
 * @param provenance The provenance JSON to keep in the schema metadata, if any.
 */
export function encodeArrow(
  table: ColumnTable,
  flat: FlatLists,
  flattenLists: boolean,
  provenance: string | undefined,
): Uint8Array {
  const kinds = flattenLists ? ["array", "object"] : ["object"];
  const arrow = toArrow(scalarCells(table, kinds, flat));
  if (provenance) arrow.schema.metadata = new Map([[PROVENANCE_KEY, provenance]]);
  return tableToIPC(arrow, { format: "file" })!;
}

/** The table in an Arrow IPC file, with the provenance its metadata kept. */
export function decodeArrow(bytes: Uint8Array, path: string): ColumnTable {
  const { columns, metadata } = readArrowIPC(bytes);
  const table = tableFromColumns(columns);
  const from = metadata.get(PROVENANCE_KEY);
  return from === undefined ? table : restoreProvenance(table, from, `${path} metadata`);
}
