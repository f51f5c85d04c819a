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
import { TidepoolError } from "../errors/errors.ts";

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

/** How far a Parquet file may expand when decoded: checked in its footer, then while decoding. */
export interface ParquetBounds {
  /** The most cells (rows × columns). */
  readonly maxCells: number;
  /** The most bytes of column data, uncompressed as the footer declares it and decoded. */
  readonly maxBytes: number;
}

/** What a Parquet file's footer declares, read without decoding a page. */
export interface ParquetShape {
  /** The rows of all row groups. */
  readonly rows: number;
  /** The columns (of the widest row group). */
  readonly columns: number;
  /** The column data's uncompressed bytes. */
  readonly uncompressedBytes: number;
}

/**
 * Reads what a Parquet file's footer declares: rows, columns and
 * uncompressed bytes. A few kilobytes of Parquet can declare millions of
 * rows (a run of equal values), so a file from elsewhere is measured here
 * before it is decoded.
 *
 * @param bytes The bytes of a Parquet file.
 * @returns Its shape, as declared.
 *
 * @example The shape of a small table
 * ```ts
 * import * as aq from "arquero";
 * const shape = await parquetShape(await tableToParquet(aq.table({ a: [1, 2], b: ["x", "y"] })));
 * console.log(shape.rows, shape.columns); // 2 2
 * ```
 */
export async function parquetShape(bytes: Uint8Array): Promise<ParquetShape> {
  const wasm = await parquetWasm();
  using file = await wasm.ParquetFile.fromFile(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  using metadata = file.metadata();
  using fileMetadata = metadata.fileMetadata();
  let columns = 0;
  let uncompressedBytes = 0;
  for (const group of metadata.rowGroups()) {
    using held = group;
    const chunks = held.columns();
    columns = Math.max(columns, held.numColumns());
    const declared = chunks.reduce((sum, chunk) => sum + chunk.uncompressedSize(), 0);
    for (const chunk of chunks) chunk.free();
    uncompressedBytes += Math.max(held.totalByteSize(), declared);
  }
  return { rows: fileMetadata.numRows(), columns, uncompressedBytes };
}

/**
 * Decodes a Parquet file as a table. Files tidepool wrote come back with the
 * same column types, values and provenance; other files are typed from their Arrow types
 * (int64 as bigint, timestamps as dates, lists as arrays, structs as objects).
 *
 * With `bounds`, a file from elsewhere is refused before it is decoded when
 * its footer declares more cells or bytes than the bounds, it is decoded to
 * at most the rows it declares (a footer may declare fewer rows than its
 * pages hold), and the decoded columns are measured before they become a table.
 *
 * @param bytes The bytes of a Parquet file.
 * @param options Which columns to read (default all), and the bounds of a file from elsewhere.
 * @returns The table, its types readable with {@linkcode columnTypes}.
 * @throws {TidepoolError} When the file is past the bounds.
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
  options: { columns?: string[]; bounds?: ParquetBounds } = {},
): Promise<ColumnTable> {
  const wasm = await parquetWasm();
  const { bounds } = options;
  const shape = bounds ? await parquetShape(bytes) : undefined;
  if (bounds && shape) {
    if (shape.rows * shape.columns > bounds.maxCells) {
      throw tooLarge(
        `its footer declares ${shape.rows} rows of ${shape.columns} columns, more than ${bounds.maxCells} cells`,
      );
    }
    if (shape.uncompressedBytes > bounds.maxBytes) {
      throw tooLarge(
        `its footer declares ${shape.uncompressedBytes} bytes of column data, more than ${bounds.maxBytes}`,
      );
    }
  }
  const arrowTable = wasm.readParquet(bytes, {
    ...(options.columns ? { columns: options.columns } : {}),
    // The pages are read only as far as the rows the footer declares, however many they hold.
    ...(shape ? { limit: shape.rows } : {}),
  });
  if (bounds && arrowTable.getArrayMemorySize() > bounds.maxBytes) {
    const decoded = arrowTable.getArrayMemorySize();
    arrowTable.free();
    throw tooLarge(`its columns decode to ${decoded} bytes, more than ${bounds.maxBytes}`);
  }
  const { columns, metadata } = readArrowIPC(arrowTable.intoIPCStream());
  const table = tableFromColumns(columns);
  const from = metadata.get(PROVENANCE_KEY);
  return from === undefined ? table : restoreProvenance(table, from, "Parquet schema metadata");
}

function tooLarge(why: string): TidepoolError {
  return new TidepoolError(`The Parquet file is too large to read: ${why}`, {
    hint:
      "A table past the bound is not decoded, so that a small file cannot take the memory; allow a larger bound when the table is known to be that large",
  });
}
