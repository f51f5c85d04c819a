/**
 * How large a table `verify` and `reproduce` read back from files they do
 * not trust (a bundle's, a re-run's): a few kilobytes of Parquet can declare
 * millions of rows, so the footer is read first and a table past the bound
 * is refused, never decoded. The bound is on cells (rows × columns), which
 * is what the memory of a decoded table grows with, and on bytes.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { ParquetBounds } from "../dataset/parquet.ts";
import { fileState, readKnownSize } from "./_bundle_file.ts";

/** The most cells (rows × columns) of a table read back, unless the reviewer allows more. */
export const DEFAULT_MAX_TABLE_CELLS = 10_000_000;

/** The most bytes of a table file, or of its column data decoded. */
export const MAX_TABLE_BYTES = 512 * 1024 * 1024;

/**
 * The bounds of a table read back.
 *
 * @param maxCells The most cells; default {@linkcode DEFAULT_MAX_TABLE_CELLS}.
 * @returns The bounds for `tableFromParquet`.
 */
export function tableBounds(maxCells = DEFAULT_MAX_TABLE_CELLS): ParquetBounds {
  return { maxCells, maxBytes: MAX_TABLE_BYTES };
}

/**
 * A table file of a folder read back from its own bytes only (never a
 * sidecar beside it), within bounds: a regular file, at most
 * {@linkcode MAX_TABLE_BYTES}, a Parquet file within `bounds` before it is
 * decoded, a CSV file by its size.
 *
 * @param dir The folder.
 * @param name The file's plain name, `.csv` or `.parquet`.
 * @param bounds The bounds.
 * @returns The table.
 * @throws {Error} Saying why it is not read.
 */
export async function readBoundedTable(
  dir: string,
  name: string,
  bounds: ParquetBounds,
): Promise<ColumnTable> {
  return (await readBoundedTableFile(dir, name, bounds)).table;
}

/**
 * {@linkcode readBoundedTable}, with a CSV file's text as well: what a
 * reader of the CSV sees, cell for cell.
 *
 * @param dir The folder.
 * @param name The file's plain name, `.csv` or `.parquet`.
 * @param bounds The bounds.
 * @returns The table, and the text of a CSV file.
 * @throws {Error} Saying why it is not read.
 */
export async function readBoundedTableFile(
  dir: string,
  name: string,
  bounds: ParquetBounds,
): Promise<{ table: ColumnTable; csvText?: string }> {
  const state = await fileState(dir, name);
  if (state.kind !== "file") throw new Error("not a regular file");
  if (state.bytes > bounds.maxBytes) {
    throw new Error(
      `the file has ${state.bytes} bytes, more than the ${bounds.maxBytes} read back`,
    );
  }
  const bytes = await readKnownSize(`${dir}/${name}`, state.bytes);
  if (name.toLowerCase().endsWith(".csv")) {
    const cells = csvCells(bytes);
    if (cells.lines * cells.columns > bounds.maxCells) {
      throw new Error(
        `The CSV file is too large to read: it holds ${cells.lines} lines of ${cells.columns} columns, more than ${bounds.maxCells} cells`,
      );
    }
    const { decodeCsv } = await import("../files/_csv.ts");
    let csvText;
    try {
      // Bytes that are not UTF-8 are read one way by a spreadsheet, another by a decoder that
      // replaces them: so they are refused, never replaced.
      csvText = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new Error("the CSV file is not UTF-8 text: readers would read its cells apart");
    }
    return { table: decodeCsv(csvText), csvText };
  }
  if (name.toLowerCase().endsWith(".parquet")) {
    const { tableFromParquet } = await import("../dataset/parquet.ts");
    return { table: await tableFromParquet(bytes, { bounds }) };
  }
  throw new Error("tables are read from .csv and .parquet files only");
}

/**
 * An upper bound of a CSV file's cells, counted before it is decoded: its
 * line ends (a quoted one counts too) and the fields of its first line.
 */
function csvCells(bytes: Uint8Array): { lines: number; columns: number } {
  let lines = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? 1 : 0;
  let columns = 1;
  let firstLine = true;
  for (const byte of bytes) {
    if (byte === 0x0a) {
      lines++;
      firstLine = false;
    } else if (firstLine && byte === 0x2c) columns++;
  }
  return { lines, columns };
}
