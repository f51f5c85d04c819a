/**
 * Tables to Parquet bytes and back, through Arrow; how each column type is
 * stored is decided in `_arrow_columns.ts`.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { columnTypes, tableFromColumns, type TypedColumn } from "../table/build_table.ts";
import {
  chunksToArrowIPC,
  columnsToArrowIPC,
  type EncodedChunk,
  readArrowIPC,
} from "./_arrow_columns.ts";
import { PROVENANCE_KEY, provenanceJson, restoreProvenance } from "../table/_provenance_json.ts";
import { parquetWasm } from "./_parquet_wasm.ts";

/**
 * Encodes typed columns as one Parquet file (ZSTD, one row group).
 *
 * @param columns Columns whose values are of their declared types or null.
 * @param metadata More Arrow schema metadata, kept in the file (a table's provenance).
 * @returns The bytes of a Parquet file.
 *
 * @example Two columns
 * ```ts
 * const bytes = await columnsToParquet([
 *   { name: "id", type: "string", values: ["a", "b"] },
 *   { name: "seen", type: "date", values: [new Date(0), null] },
 * ]);
 * console.log(new TextDecoder().decode(bytes.subarray(0, 4))); // "PAR1"
 * ```
 */
export function columnsToParquet(
  columns: readonly TypedColumn[],
  metadata: Readonly<Record<string, string>> = {},
): Promise<Uint8Array> {
  return ipcToParquet(columnsToArrowIPC(columns, metadata), columns[0]?.values.length ?? 0);
}

/**
 * Encodes chunks of encoded columns as one Parquet file with one row group.
 *
 * @param chunks Chunks a writer held, in order.
 * @returns The bytes of a Parquet file.
 */
export function chunksToParquet(chunks: readonly EncodedChunk[]): Promise<Uint8Array> {
  const rows = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  return ipcToParquet(chunksToArrowIPC(chunks), rows);
}

async function ipcToParquet(ipc: Uint8Array, rows: number): Promise<Uint8Array> {
  const wasm = await parquetWasm();
  const arrowTable = wasm.Table.fromIPCStream(ipc);
  const properties = new wasm.WriterPropertiesBuilder()
    .setCompression(wasm.Compression.ZSTD)
    .setMaxRowGroupSize(Math.max(1, rows))
    .build();
  // writeParquet takes ownership of both and frees them.
  return wasm.writeParquet(arrowTable, properties);
}

/**
 * Encodes a table as a Parquet file, each column stored by its tidepool type
 * (see {@linkcode columnTypes}): dates as UTC timestamps, bigints as int64,
 * arrays as Parquet lists, objects as JSON text. A table's provenance (see
 * `provenance`) is kept in the schema metadata.
 *
 * @param table The table.
 * @returns The bytes of a Parquet file.
 *
 * @example A table to Parquet bytes
 * ```ts
 * import * as aq from "arquero";
 * const bytes = await tableToParquet(aq.table({ id: ["a"], n: [1n] }));
 * console.log(bytes.byteLength > 0); // true
 * ```
 */
export function tableToParquet(table: ColumnTable): Promise<Uint8Array> {
  const columns = Object.entries(columnTypes(table)).map(([name, type]) => ({
    name,
    type,
    values: Array.from(table.array(name) as ArrayLike<unknown>),
  }));
  const from = provenanceJson(table);
  return columnsToParquet(columns, from ? { [PROVENANCE_KEY]: from } : {});
}

/**
 * Decodes a Parquet file as a table. Files tidepool wrote come back with the
 * same column types, values and provenance; other files are typed from their Arrow types
 * (int64 as bigint, timestamps as dates, lists as arrays, structs as objects).
 *
 * @param bytes The bytes of a Parquet file.
 * @param options Which columns to read; default all.
 * @returns The table, its types readable with {@linkcode columnTypes}.
 *
 * @example Round trip
 * ```ts
 * import * as aq from "arquero";
 * const table = await tableFromParquet(await tableToParquet(aq.table({ tags: [["a", "b"]] })));
 * console.log(table.get("tags", 0)); // ["a", "b"]
 * ```
 */
export async function tableFromParquet(
  bytes: Uint8Array,
  options: { columns?: string[] } = {},
): Promise<ColumnTable> {
  const wasm = await parquetWasm();
  const arrowTable = wasm.readParquet(bytes, options.columns ? { columns: options.columns } : {});
  const { columns, metadata } = readArrowIPC(arrowTable.intoIPCStream());
  const table = tableFromColumns(columns);
  const from = metadata.get(PROVENANCE_KEY);
  return from === undefined ? table : restoreProvenance(table, from, "Parquet schema metadata");
}
